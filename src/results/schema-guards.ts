/**
 * Compile-time guards: what assay writes is what its readers read. Each line fails `tsc` when the
 * written file's type (inferred in results-file.ts, sample-line.ts) stops fitting the schema readers parse
 * with (schema.ts).
 * Types only: nothing here runs, and nothing imports this file.
 */
import type { z } from 'zod';
import type { ResultsFile } from './results-file.js';
import type { SampleLine } from './sample-line.js';
import type {
  mergedSampleSchema,
  pairingSampleSchema,
  resultsFileSchema,
  sampleLineSchema,
} from './schema.js';

type Assignable<To, From extends To> = From;

/** Keys other than an index signature's. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: 0 };

/**
 * A schema's input type without the index signatures of its loose objects (they let unknown keys
 * through, and a writer's interface, having none, could never match them); records stay records.
 */
type Written<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer Item)[]
    ? Written<Item>[]
    : T extends object
      ? [KnownKeys<T>] extends [never]
        ? { [K in keyof T]: Written<T[K]> }
        : { [K in keyof T as string extends K ? never : number extends K ? never : K]: Written<T[K]> }
      : T;

export type ResultsFileIsReadable = Assignable<Written<z.input<typeof resultsFileSchema>>, ResultsFile>;
export type SampleLineIsReadable = Assignable<Written<z.input<typeof sampleLineSchema>>, SampleLine>;
export type SampleLineIsPairable = Assignable<Written<z.input<typeof pairingSampleSchema>>, SampleLine>;
export type SampleLineIsMergeable = Assignable<Written<z.input<typeof mergedSampleSchema>>, SampleLine>;
