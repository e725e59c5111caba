/**
 * `assay/testing`: the conformance suites of assay's seams, for vitest (an optional peer dependency).
 * A backend, a response-cache store or a tokenizer that passes its suite works wherever assay uses one.
 *
 *   import { runBackendConformance } from 'assay/testing';
 *   runBackendConformance({
 *     name: 'my backend',
 *     create: () => new MyBackend(),
 *     createFailing: (marker) => new MyBackend({ failOn: marker }),
 *   });
 */
export {
  type BackendConformanceOptions,
  type BackendConformanceTest,
  runBackendConformance,
} from './backend-conformance.js';
export {
  type ResponseCacheConformanceOptions,
  type ResponseCacheConformanceTest,
  runResponseCacheConformance,
} from './response-cache-conformance.js';
export {
  runTokenizerConformance,
  type TokenizerConformanceOptions,
  type TokenizerConformanceTest,
} from './tokenizer-conformance.js';
