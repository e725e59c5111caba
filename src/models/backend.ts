/**
 * The model seam: backend spec v2, one part per file under spec/ (requests and call options, answers, the
 * ModelBackend type with its declared capabilities, the optional capabilities as sub-interfaces with their
 * type predicates, the runtime spec check; spec v1's types and its adapter to v2). Import it from here. Every backend implements `ModelBackend`, and
 * every backend runs one conformance suite (`runBackendConformance` in `assay/testing`).
 */
export * from './spec/adapt-v1.js';
export * from './spec/answers.js';
export * from './spec/capabilities.js';
export * from './spec/model-backend.js';
export * from './spec/model-backend-v1.js';
export * from './spec/requests.js';
export * from './spec/spec-check.js';
