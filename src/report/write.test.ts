import { describe, expect, test } from 'vitest';
import { sanitizeModelName } from './write.js';

describe('sanitizeModelName', () => {
  test("HF-style names keep lm-eval's rule (utils.sanitize_model_name)", () => {
    expect(sanitizeModelName('EleutherAI/pythia-70m')).toBe('EleutherAI__pythia-70m');
    expect(sanitizeModelName('org/model:v1')).toBe('org__model__v1');
    expect(sanitizeModelName('a<b>c|d?e*f[g]h"i\\j')).toBe('a__b__c__d__e__f__g__h__i__j');
    // A run of forbidden characters becomes one `__`, as Python's re.sub with `+` does.
    expect(sanitizeModelName('org//model')).toBe('org__model');
    expect(sanitizeModelName('gpt2')).toBe('gpt2');
  });

  test('a relative GGUF path gives a visible folder, not a hidden one', () => {
    // lm-eval would give `..__shared__models__stories260K.gguf` and `.__m.gguf`.
    expect(sanitizeModelName('../shared/models/stories260K.gguf')).toBe('shared__models__stories260K.gguf');
    expect(sanitizeModelName('./m.gguf')).toBe('m.gguf');
    expect(sanitizeModelName('../../a/b.gguf')).toBe('a__b.gguf');
    expect(sanitizeModelName('.hidden.gguf')).toBe('hidden.gguf');
    // Absolute paths start with `__`, which is visible: lm-eval's name is kept.
    expect(sanitizeModelName('/models/m.gguf')).toBe('__models__m.gguf');
  });

  test('a name of dots alone never becomes `.` or `..` (which would leave --output_path)', () => {
    expect(sanitizeModelName('..')).toBe('model');
    expect(sanitizeModelName('.')).toBe('model');
    expect(sanitizeModelName('./.')).toBe('model');
  });
});
