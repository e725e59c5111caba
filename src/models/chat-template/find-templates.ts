/**
 * Where a served model's chat template comes from, as lm-eval gets it from `AutoTokenizer.from_pretrained
 * (tokenizer or pretrained)`: the tokenizer named by `tokenizer=`, else the model's own name — a folder, a
 * file in a folder, or a Hub id read from the Hugging Face cache (the snapshot holding its tokenizer.json,
 * models/tokenizers/tokenizer-folder.ts cachedTokenizerFolder). The folder's templates are read by
 * tokenizer-templates.ts. Nothing is downloaded here: a tokenizer the backend downloaded comes as the
 * candidate's folder (tokenizerFolder), else the cache answers.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { AssayError } from '../../errors.js';
import { cachedTokenizerFolder } from '../tokenizers/tokenizer-folder.js';
import { type ChatTemplateLookup, type ChatTemplateRules, ChatTemplates } from './chat-templates.js';
import { readTokenizerTemplates, templateFilesOf } from './tokenizer-templates.js';

export interface TemplateCandidate {
  /** A path or a Hub id. */
  name: string;
  /** The model arg that named it, for messages (`tokenizer`, `model`, `pretrained`). */
  namedBy: string;
  revision?: string;
  /** The folder, when the tokenizer code has already resolved (or downloaded) it. */
  folder?: string;
}

/** The local folder of a tokenizer name; an AssayError (not_found) says why there is none. */
function folderOf(candidate: TemplateCandidate): string {
  if (candidate.folder !== undefined) return candidate.folder;
  if (existsSync(candidate.name)) {
    const folder = statSync(candidate.name).isDirectory() ? candidate.name : path.dirname(candidate.name);
    return path.resolve(folder);
  }
  return cachedTokenizerFolder(candidate.name, { revision: candidate.revision, namedBy: candidate.namedBy })
    .folder;
}

/** The first candidate's templates that has any; otherwise where each was looked for. */
export function findChatTemplates(
  candidates: TemplateCandidate[],
  rules: ChatTemplateRules,
): ChatTemplateLookup {
  const looked: string[] = [];
  for (const candidate of candidates) {
    const label = `${candidate.namedBy}=${candidate.name}`;
    // A backend is made for runs with and without a chat template: what fails here is kept as the reason a
    // run that asks for one stops, never an error of the backend's creation.
    try {
      const folder = folderOf(candidate);
      const source = readTokenizerTemplates(folder);
      if (source) return { templates: new ChatTemplates(source, rules) };
      looked.push(`${label}: no chat template in ${templateFilesOf(folder).join(', ')}`);
    } catch (error) {
      if (!(error instanceof AssayError)) throw error;
      looked.push(`${label}: ${error.message}`);
    }
  }
  if (looked.length === 0) return { missing: 'no tokenizer or model folder was named' };
  return { missing: `${looked.join('; ')}; name a tokenizer folder that has one with tokenizer=` };
}
