import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../../test/support/require-component.js';
import type { ChatMessage } from '../spec/requests.js';
import { renderChatTemplate, TemplateRaised } from './render.js';

/**
 * Published chat templates rendered by assay must equal Python's jinja2 under transformers' settings, byte
 * for byte. expected.json is render_jinja2.py's output on cases.json (stored, so the comparison is visible);
 * where Debian's python3-jinja2 is installed the script is run again and must give the same file.
 */
const folder = path.resolve(import.meta.dirname, '../../../test/fixtures/chat-templates');

interface Variant {
  conversation: string;
  add_generation_prompt?: boolean;
  continue_final_message?: boolean;
  variables?: Record<string, unknown>;
}
interface Cases {
  now: string;
  conversations: Record<string, ChatMessage[]>;
  variants: Record<string, Variant>;
  standard_variants: string[];
  templates: Record<
    string,
    { special_tokens: Record<string, string>; extra_variants?: string[]; fallback_without_system?: boolean }
  >;
}
type Expected = Record<string, { text: string; fallback: boolean } | { error: string; kind: string }>;

const cases = JSON.parse(readFileSync(path.join(folder, 'cases.json'), 'utf8')) as Cases;
const expected = JSON.parse(readFileSync(path.join(folder, 'expected.json'), 'utf8')) as Expected;
const clock = () => {
  const [date, time] = cases.now.split('T');
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = time.split(':').map(Number);
  return new Date(year, month - 1, day, hour, minute, second);
};

/** lm-eval's retry without the system messages, as render_jinja2.py does it for the flagged templates. */
function render(
  source: string,
  messages: ChatMessage[],
  variant: Variant,
  variables: Record<string, unknown>,
  fallback: boolean,
) {
  const options = {
    addGenerationPrompt: variant.add_generation_prompt ?? false,
    continueFinalMessage: variant.continue_final_message ?? false,
    variables,
    now: clock,
  };
  try {
    return { text: renderChatTemplate(source, messages, options), fallback: false };
  } catch (error) {
    if (!(error instanceof TemplateRaised)) throw error;
    if (!fallback) return { error: error.message, kind: 'template' };
    try {
      const withoutSystem = messages.filter((message) => message.role !== 'system');
      return { text: renderChatTemplate(source, withoutSystem, options), fallback: true };
    } catch (again) {
      if (again instanceof TemplateRaised) return { error: again.message, kind: 'template' };
      throw again;
    }
  }
}

const ids: string[] = [];
describe('chat templates render as Python jinja2 under transformers renders them', () => {
  for (const [file, entry] of Object.entries(cases.templates)) {
    const source = readFileSync(path.join(folder, file), 'utf8');
    for (const name of [...cases.standard_variants, ...(entry.extra_variants ?? [])]) {
      const id = `${file}#${name}`;
      ids.push(id);
      it(id, () => {
        const variant = cases.variants[name];
        const variables = { ...entry.special_tokens, ...variant.variables };
        const messages = cases.conversations[variant.conversation];
        expect(render(source, messages, variant, variables, entry.fallback_without_system ?? false)).toEqual(
          expected[id],
        );
      });
    }
  }

  it('covers every stored case', () => {
    expect(ids.sort()).toEqual(Object.keys(expected).sort());
  });
});

function pythonWithJinja2(): string | undefined {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const probe = spawnSync(candidate, ['-c', 'import jinja2'], { stdio: 'ignore' });
    if (probe.status === 0) return candidate;
  }
  return undefined;
}

const python = pythonWithJinja2();
if (requireComponent('python3-jinja2', python !== undefined)) {
  describe('the stored expectations are what Python jinja2 renders', () => {
    it('render_jinja2.py --cases cases.json reproduces expected.json', () => {
      const output = execFileSync(python as string, ['render_jinja2.py', '--cases', 'cases.json'], {
        cwd: folder,
        encoding: 'utf8',
      });
      expect(JSON.parse(output)).toEqual(expected);
    });
  });
}
