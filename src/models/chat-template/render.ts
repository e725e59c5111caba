/**
 * A model's Jinja chat template rendered as transformers' `tokenizer.apply_chat_template(messages,
 * tokenize=False, add_generation_prompt, continue_final_message, **kwargs)` renders it
 * (utils/chat_template_utils.py `render_jinja_template`, tokenization_utils_base.py): the template sees
 * `messages`, `tools=None`, `documents=None`, `add_generation_prompt`, then the tokenizer's special tokens
 * and the caller's variables; `continue_final_message` cuts the text where the final message ends.
 *
 * The engine is @huggingface/jinja (the renderer transformers.js uses), not the project's task-template
 * interpreter (src/prompts/), which is written for lm-eval's prompt templates. It is used as configured:
 * its Template trims and left-strips blocks (transformers' `trim_blocks`, `lstrip_blocks`), knows
 * `break`/`continue` (the loopcontrols extension) and `{% generation %}`, and its `tojson` takes
 * `ensure_ascii` (default false), `indent`, `separators` and `sort_keys` as Python's json.dumps does.
 * Where it differs from Python's jinja2 on what templates do, engine.ts works around it from outside
 * (globals, string strip methods, printing); the package is not patched.
 *
 * Equality with Python's jinja2 under transformers' settings is checked on published templates:
 * test/fixtures/chat-templates/ (render_jinja2.py is the reference, expected.json its output).
 */
import { Template } from '@huggingface/jinja';
import { AssayError } from '../../errors.js';
import { pythonStrip } from '../../python/semantics/string.js';
import type { ChatMessage } from '../spec/requests.js';
import { pythonInterpreter, TemplateRaised, transformersGlobals } from './engine.js';

export { TemplateRaised };

export interface RenderOptions {
  addGenerationPrompt: boolean;
  /** transformers' continue_final_message: the prompt ends inside the final message, without its end tag. */
  continueFinalMessage?: boolean;
  /** The tokenizer's special tokens, then the caller's template variables (these win), as transformers merges them. */
  variables?: Record<string, unknown>;
  /** The clock strftime_now reads (tests fix it). */
  now?: () => Date;
}

/** transformers' marker for the end of the continued message. */
const CONTINUE_TAG = 'CONTINUE_FINAL_MESSAGE_TAG ';

const compiled = new Map<string, Template>();

function compile(source: string): Template {
  let template = compiled.get(source);
  if (!template) {
    try {
      template = new Template(source);
    } catch (error) {
      throw new AssayError(
        'template_error',
        `the chat template does not parse: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    compiled.set(source, template);
  }
  return template;
}

/**
 * The rendered prompt. Throws `TemplateRaised` when the template raises, and an AssayError
 * (`template_error`) for anything else that stops it.
 */
export function renderChatTemplate(source: string, messages: ChatMessage[], options: RenderOptions): string {
  const template = compile(source);
  const chat = messages.map((message) => ({ ...message }));
  let finalContent: string | undefined;
  if (options.continueFinalMessage) {
    const last = chat[chat.length - 1];
    if (!last) throw new AssayError('template_error', 'continue_final_message needs a final message');
    if (!source.includes('content')) {
      throw new AssayError(
        'template_error',
        'continue_final_message is set, but the chat template never reads a message `content`',
      );
    }
    finalContent = last.content;
    last.content = `${last.content}${CONTINUE_TAG}`;
  }
  const now = options.now ?? (() => new Date());
  let rendered: string;
  try {
    const environment = transformersGlobals(now);
    const variables: Record<string, unknown> = {
      messages: chat,
      tools: null,
      documents: null,
      add_generation_prompt: options.addGenerationPrompt,
      ...options.variables,
    };
    // A variable may shadow a global (transformers' kwargs are plain render arguments).
    for (const [name, value] of Object.entries(variables)) {
      if (environment.variables.has(name)) environment.variables.delete(name);
      environment.set(name, value);
    }
    rendered = (pythonInterpreter(environment).run(template.parsed) as { value: string }).value;
  } catch (error) {
    if (error instanceof TemplateRaised) throw error;
    throw new AssayError('template_error', `the chat template failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (finalContent === undefined) return rendered;
  const tag = CONTINUE_TAG.trim();
  if (!rendered.includes(pythonStrip(finalContent)) || !rendered.includes(tag)) {
    throw new AssayError(
      'template_error',
      'continue_final_message is set, but the chat template drops part of the final message, so the prompt cannot end inside it',
    );
  }
  const at = rendered.lastIndexOf(tag);
  // The template kept the space after the tag: cut there; it trimmed the message: drop the trailing space too.
  if (rendered.slice(at, at + CONTINUE_TAG.length) === CONTINUE_TAG) return rendered.slice(0, at);
  return pythonStrip(rendered.slice(0, at), null, 'right');
}
