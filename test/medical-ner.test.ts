import { describe, expect, it } from 'vitest';
import { entityF1, normaliseEntity, parseEntities } from '../examples/tasks/medical-ner.task.js';

describe('medical NER entity F1 (examples/tasks/medical-ner.task.ts)', () => {
  it('normalises entities and parses a comma/semicolon list', () => {
    expect(normaliseEntity('  Type 2  Diabetes. ')).toBe('type 2 diabetes');
    expect([...parseEntities('Metformin, type 2 diabetes; none\nHeadache')]).toEqual([
      'metformin',
      'type 2 diabetes',
      'headache',
    ]);
  });
  it('scores set F1: P = 1/2, R = 1/3 → F1 = 0.4', () => {
    expect(entityF1(['headache', 'nausea', 'ibuprofen'], parseEntities('headache, aspirin'))).toBeCloseTo(
      0.4,
      12,
    );
    expect(entityF1(['lisinopril'], parseEntities('Lisinopril.'))).toBe(1);
    expect(entityF1(['asthma'], parseEntities('salbutamol'))).toBe(0);
  });
  it('an empty gold set scores 1 only when nothing is predicted', () => {
    expect(entityF1([], parseEntities('none'))).toBe(1);
    expect(entityF1([], parseEntities(''))).toBe(1);
    expect(entityF1([], parseEntities('weather'))).toBe(0);
  });
});
