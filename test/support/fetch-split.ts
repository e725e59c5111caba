/**
 * A separate process that loads one Hub split (for tests of several processes sharing one cache):
 *   tsx test/support/fetch-split.ts <dataset> <config> <split>
 * Prints the split's source (commit, files, sha256s) as JSON. HF_ENDPOINT and HF_HUB_CACHE come from env.
 */
import { hubSplit } from '../../src/data/hub/dataset.js';

const [dataset, config, split] = process.argv.slice(2);
const { source } = await hubSplit({ dataset, config }, split);
process.stdout.write(`${JSON.stringify(source)}\n`);
