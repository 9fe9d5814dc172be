// The extension manifest against the code: settings match RolloutLensSettings/DEFAULT_SETTINGS,
// every command the menus name is contributed and registered, files the manifest points to exist,
// the built-in jsonl language is used (none registered), engines within the tested VS Code.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as protocol from '../../shared/protocol';
import { PT_DUMP_EXTENSIONS } from '../../shared/logFiles';
import { DEFAULT_SETTINGS } from '../../shared/protocol';
import { repoRoot } from './harness';

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const contributes = manifest.contributes;
const clientSource = readdirSync(join(repoRoot, 'client/src'))
  .map((f) => readFileSync(join(repoRoot, 'client/src', f), 'utf8'))
  .join('\n');

test('manifest: one setting per RolloutLensSettings key, default equal to DEFAULT_SETTINGS, markdown description, resource scope', () => {
  const props = contributes.configuration.properties as Record<string, { default: unknown; markdownDescription?: string; scope?: string }>;
  assert.deepEqual(
    Object.keys(props).sort(),
    Object.keys(DEFAULT_SETTINGS)
      .map((k) => `rolloutLens.${k}`)
      .sort(),
  );
  for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
    const p = props[`rolloutLens.${key}`];
    assert.deepEqual(p.default, value, key);
    assert.ok(p.markdownDescription && p.markdownDescription.length > 20, `${key} has a markdown description`);
    assert.equal(p.scope, 'resource', key);
  }
});

test("manifest: settings are described in a user's words: no repository paths", () => {
  const props = contributes.configuration.properties as Record<string, { markdownDescription: string; enumDescriptions?: string[] }>;
  for (const [key, p] of Object.entries(props))
    for (const text of [p.markdownDescription, ...(p.enumDescriptions ?? [])])
      assert.doesNotMatch(text, /docs\/|\.md\b|server\/src|shared\/|#[a-z-]+\)/, `${key}: ${text}`);
});

test('manifest: welcome views show no literal backticks and offer Open Run View where no log is open', () => {
  const welcome = contributes.viewsWelcome as { view: string; contents: string; when: string }[];
  for (const w of welcome) assert.ok(!w.contents.includes('`'), `${w.view}: ${w.contents}`);
  for (const w of welcome.filter((x) => x.when === '!rolloutLens.hasTarget'))
    assert.match(w.contents, /\[Open Run View\]\(command:rolloutLens\.openRunView\)/, w.view);
});

test('manifest: the sample view steps to failed samples and dropped groups, with keybindings, only while it is the active panel', () => {
  const when = "activeWebviewPanelId == 'rolloutLens.sample'";
  const steps = ['rolloutLens.nextFailedSample', 'rolloutLens.previousFailedSample', 'rolloutLens.nextDroppedGroup', 'rolloutLens.previousDroppedGroup'];
  const keys = contributes.keybindings as { command: string; key: string; when: string }[];
  for (const command of steps) {
    assert.ok(
      contributes.commands.some((c: { command: string }) => c.command === command),
      `${command} contributed`,
    );
    const bound = keys.filter((k) => k.command === command);
    assert.equal(bound.length, 1, `${command} has a keybinding`);
    assert.equal(bound[0].when, when);
    const palette = (contributes.menus.commandPalette as { command: string; when: string }[]).find((m) => m.command === command);
    assert.equal(palette?.when, when, `${command} in the palette only with the sample view`);
  }
  assert.equal(new Set(keys.map((k) => k.key)).size, keys.length, 'distinct keys');
});

test('manifest: activation on the built-in jsonl language and on workspaces with logs; no language of its own', () => {
  assert.ok(manifest.activationEvents.includes('onLanguage:jsonl'));
  assert.ok(manifest.activationEvents.includes('workspaceContains:**/*.jsonl'));
  assert.equal(contributes.languages, undefined);
  assert.deepEqual(
    contributes.grammars.map((g: { injectTo: string[] }) => g.injectTo),
    [['source.json.lines']],
  );
});

test('manifest: untrusted workspaces limited (read-only analysis), engines.vscode ^1.91.0', () => {
  assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
  assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('rolloutLens.evalConfig'));
  // A file path a workspace could point anywhere: read only where the workspace is trusted.
  assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('rolloutLens.tokenizer'));
  assert.equal(manifest.engines.vscode, '^1.91.0');
  assert.match(clientSource, /isTrusted/, 'the client checks workspace trust before offering fixes');
});

test('manifest: every command in menus and welcome views is contributed, and every contributed command is registered', () => {
  const declared = new Set<string>(contributes.commands.map((c: { command: string }) => c.command));
  const named = Object.values(contributes.menus as Record<string, { command: string }[]>)
    .flat()
    .map((m) => m.command);
  for (const w of contributes.viewsWelcome as { contents: string }[]) for (const m of w.contents.matchAll(/\(command:([\w.]+)\)/g)) named.push(m[1]);
  for (const c of named) assert.ok(declared.has(c), `${c} is contributed`);
  // By its literal, or by the name shared/protocol.ts gives it (commands the server's answers carry).
  const byName = (c: string) => Object.entries(protocol).some(([name, value]) => value === c && new RegExp(`\\b${name}\\b`).test(clientSource));
  for (const c of declared) assert.ok(clientSource.includes(`'${c}'`) || byName(c), `${c} is registered by the client`);
});

test('manifest: the icon, the activity-bar icon and the grammar exist; views live in the Rollout Lens container', () => {
  assert.ok(existsSync(join(repoRoot, manifest.icon)));
  assert.ok(existsSync(join(repoRoot, contributes.viewsContainers.activitybar[0].icon)));
  for (const g of contributes.grammars) assert.ok(existsSync(join(repoRoot, g.path)));
  assert.deepEqual(
    contributes.views.rolloutLens.map((v: { id: string; name: string }) => `${v.id}: ${v.name}`),
    ['rolloutLens.groups: Groups by cause', 'rolloutLens.datasets: Eval datasets'],
  );
});

test('manifest: the .pt view opens every extension the engine reads as a dump (shared/logFiles.ts)', () => {
  const patterns = (contributes.customEditors as { viewType: string; selector: { filenamePattern: string }[] }[])
    .find((e) => e.viewType === 'rolloutLens.ptDump')!
    .selector.map((s) => s.filenamePattern);
  assert.deepEqual(
    patterns,
    PT_DUMP_EXTENSIONS.map((e) => `*.${e}`),
  );
});

test('manifest: Compare with Run… in the run view’s title bar and the palette; Clear Comparison only while comparing', () => {
  const titled = (contributes.menus['editor/title'] as { command: string; when: string }[]).filter(
    (m) => m.command.endsWith('Comparison') || m.command.endsWith('WithRun'),
  );
  assert.deepEqual(
    titled.map((m) => [m.command, m.when]),
    [
      ['rolloutLens.compareWithRun', "activeWebviewPanelId == 'rolloutLens.runView'"],
      ['rolloutLens.clearComparison', "activeWebviewPanelId == 'rolloutLens.runView' && rolloutLens.runViewComparing"],
    ],
  );
  const palette = contributes.menus.commandPalette as { command: string; when: string }[];
  assert.equal(palette.find((m) => m.command === 'rolloutLens.clearComparison')?.when, 'rolloutLens.runViewComparing');
  assert.match(palette.find((m) => m.command === 'rolloutLens.compareWithRun')?.when ?? '', /rolloutLens\.runView/);
  const title = (id: string) => contributes.commands.find((c: { command: string }) => c.command === id);
  assert.deepEqual([title('rolloutLens.compareWithRun').title, title('rolloutLens.compareWithRun').category], ['Compare with Run…', 'Rollout Lens']);
  assert.match(clientSource, /'rolloutLens\.runViewComparing'/, 'the client sets the context key the menus read');
});
