// The one number format for people: 4 significant digits in labels and views, the exact value
// (Python's repr) wherever a value is compared with a log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatForPeople, formatOrMissing } from '../../../shared/numberFormat';
import { pyFloatRepr } from '../../../shared/pythonRepr';

test('4 significant digits, trailing zeros dropped, sign kept', () => {
  const cases: [number, string][] = [
    [0.611111111111111, '0.6111'],
    [0.3333333333333333, '0.3333'],
    [-0.3333333333333333, '-0.3333'],
    [0.5833333333333334, '0.5833'],
    [0.5, '0.5'],
    [0.46153846153846156, '0.4615'],
    [12.3456, '12.35'],
    [1234.56, '1235'],
    [123456.7, '123500'],
    [0.0001234567, '0.0001235'],
    [0.99996, '1'],
    [-2.5, '-2.5'],
  ];
  for (const [x, want] of cases) assert.equal(formatForPeople(x), want, String(x));
});

test('0, integers, tiny and huge magnitudes, nan and infinities', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [-0, '0'],
    [1, '1'],
    [-3, '-3'],
    [123456, '123456'],
    [1e-9, '1e-9'],
    [-1.23456e-9, '-1.235e-9'],
    [0.00009999, '9.999e-5'],
    [999999.7, '1e+6'],
    [12345678.9, '1.235e+7'],
    [1e16, '1e+16'],
    [NaN, 'nan'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
  ];
  for (const [x, want] of cases) assert.equal(formatForPeople(x), want, String(x));
});

test('missing values; the exact value stays Python repr (what messages, hovers and the CLI print)', () => {
  assert.equal(formatOrMissing(null), '–');
  assert.equal(formatOrMissing(undefined, 'null'), 'null');
  assert.equal(formatOrMissing(0.611111111111111), '0.6111');
  assert.equal(pyFloatRepr(0.611111111111111), '0.611111111111111');
  assert.equal(pyFloatRepr(1), '1.0');
});
