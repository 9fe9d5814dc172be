// What validating each line of a JSON Lines file costs natively: simdjson's DOM parser (C++, its
// SIMD kernel for this CPU) on every line, the file read in 1 MiB chunks as the floors passes read
// it. A floor for the check's scan, which must validate every line as well (bench/floors.mjs,
// column "each line validated, native SIMD"); simdjson is fetched and built by bench/native.mjs,
// not kept in this repository.
//   validateLines <file>   prints {"lines", "valid", "loopSeconds" (the line loop: line ends and
//   parser, not the reads), "implementation" (simdjson's kernel)} as JSON
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "simdjson.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: validateLines <file>\n");
    return 2;
  }
  std::FILE *file = std::fopen(argv[1], "rb");
  if (file == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  const size_t chunk = 1 << 20;
  // The carried start of a line cut by a chunk's end, then the chunk; simdjson reads up to
  // SIMDJSON_PADDING bytes past a document, so the buffer always has that many after its data.
  std::vector<char> buffer(2 * chunk + simdjson::SIMDJSON_PADDING);
  size_t held = 0;
  size_t lines = 0;
  size_t valid = 0;
  double loopSeconds = 0;
  simdjson::dom::parser parser;
  auto validate = [&](const char *start, size_t length) {
    lines++;
    if (!parser.parse(start, length, false).error()) valid++;
  };
  for (;;) {
    if (buffer.size() < held + chunk + simdjson::SIMDJSON_PADDING) buffer.resize(2 * (held + chunk) + simdjson::SIMDJSON_PADDING);
    size_t got = std::fread(buffer.data() + held, 1, chunk, file);
    size_t end = held + got;
    std::memset(buffer.data() + end, 0, simdjson::SIMDJSON_PADDING);
    size_t start = 0;
    // timed a chunk at a time, not a line, so the clock's own cost stays out of a short line's
    auto t = std::chrono::steady_clock::now();
    for (;;) {
      const char *nl = static_cast<const char *>(std::memchr(buffer.data() + start, '\n', end - start));
      if (nl == nullptr) break;
      size_t at = nl - buffer.data();
      validate(buffer.data() + start, at - start);
      start = at + 1;
    }
    loopSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    std::memmove(buffer.data(), buffer.data() + start, end - start);
    held = end - start;
    if (got == 0) break;
  }
  if (held > 0) validate(buffer.data(), held);
  std::fclose(file);
  std::printf("{\"lines\":%zu,\"valid\":%zu,\"loopSeconds\":%.4f,\"implementation\":\"%s\"}\n", lines, valid, loopSeconds,
              simdjson::active_implementation->name().c_str());
  return 0;
}
