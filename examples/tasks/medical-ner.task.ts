/**
 * Medical named-entity recognition as a TypeScript task: the model lists the entities in a sentence,
 * and the score is entity-level F1 over sets of normalised entities, macro-averaged over sentences.
 * A sentence with no gold entities scores 1 when the model lists none, and 0 otherwise.
 */
import { defineTask } from 'assay';

interface NerDoc extends Record<string, unknown> {
  id: string;
  sentence: string;
  entities: string[];
}

/** Lowercase, drop punctuation at the edges, collapse whitespace. */
export function normaliseEntity(entity: string): string {
  return entity
    .toLowerCase()
    .replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '')
    .replace(/\s+/g, ' ');
}

/** The model's answer as a set of entities: split on commas, semicolons and new lines. */
export function parseEntities(answer: string): Set<string> {
  const out = new Set<string>();
  for (const part of answer.split(/[,;\n]/)) {
    const entity = normaliseEntity(part);
    if (entity && entity !== 'none') out.add(entity);
  }
  return out;
}

export function entityF1(gold: Iterable<string>, predicted: Set<string>): number {
  const goldSet = new Set([...gold].map(normaliseEntity).filter(Boolean));
  if (goldSet.size === 0) return predicted.size === 0 ? 1 : 0;
  let overlap = 0;
  for (const entity of predicted) if (goldSet.has(entity)) overlap++;
  if (overlap === 0) return 0;
  const precision = overlap / predicted.size;
  const recall = overlap / goldSet.size;
  return (2 * precision * recall) / (precision + recall);
}

const docs: NerDoc[] = [
  {
    id: 'ner-0',
    sentence: 'The patient was started on metformin for type 2 diabetes.',
    entities: ['metformin', 'type 2 diabetes'],
  },
  {
    id: 'ner-1',
    sentence: 'She reported headache and nausea after taking ibuprofen.',
    entities: ['headache', 'nausea', 'ibuprofen'],
  },
  { id: 'ner-2', sentence: 'Blood pressure was controlled with lisinopril.', entities: ['lisinopril'] },
  { id: 'ner-3', sentence: 'The weather was pleasant on the day of the visit.', entities: [] },
  {
    id: 'ner-4',
    sentence: 'Chest X-ray showed pneumonia; amoxicillin was prescribed.',
    entities: ['pneumonia', 'amoxicillin'],
  },
  {
    id: 'ner-5',
    sentence: 'He has a history of asthma treated with salbutamol.',
    entities: ['asthma', 'salbutamol'],
  },
];

export default defineTask<NerDoc>({
  name: 'medical-ner',
  docs,
  outputType: 'generate_until',
  docToText: (doc) =>
    `List the diseases, symptoms and drugs in the sentence, separated by commas (or "none").\nSentence: ${doc.sentence}\nEntities:`,
  docToTarget: (doc) => doc.entities.join(', '),
  generationKwargs: { until: ['\n'], max_gen_toks: 64 },
  processResults: (doc, results) => ({
    entity_f1: entityF1(doc.entities, parseEntities(String(results[0] ?? ''))),
  }),
  aggregation: {
    entity_f1: (items) => items.reduce<number>((sum, item) => sum + Number(item), 0) / items.length,
  },
  higherIsBetter: { entity_f1: true },
  version: 1,
});
