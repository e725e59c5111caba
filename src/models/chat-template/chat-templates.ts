/**
 * A model's chat templates and the rules lm-eval applies around them, for every backend that sends a
 * prompt string (local-completions, vllm, sglang, gguf): `ChatTemplates` is their `ChatTemplating`.
 *
 * - Which template: transformers' `get_chat_template` (tokenization_utils_base.py) and lm-eval's
 *   `TemplateLM.chat_template` (lm_eval/api/model.py): one template, or named ones of which `default` is
 *   used without a name. A name that is not there, a name given to a model with a single template, and
 *   several templates without a `default` are errors naming the templates there are (lm-eval warns and
 *   uses the single template for the second; assay refuses rather than record a template other than asked).
 * - How it renders: render.ts (transformers' apply_chat_template), `add_generation_prompt` and
 *   `continue_final_message = not add_generation_prompt` as lm-eval's `apply_chat_template` passes them.
 * - When the template raises (`raise_exception`): lm-eval's vllm and hf backends render again without the
 *   system messages (`except jinja2.exceptions.TemplateError`), with a warning; its local-completions and
 *   sglang backends do not retry, so the run stops with the template's message.
 */
import { AssayError } from '../../errors.js';
import type { ChatTemplating } from '../spec/capabilities.js';
import type { ChatMessage } from '../spec/requests.js';
import { renderChatTemplate, TemplateRaised } from './render.js';

export interface ChatTemplateSource {
  /** Where the templates were read (a file, or a GGUF file's metadata), for messages and the manifest. */
  origin: string;
  /** The templates by name; a single unnamed template is `default`. */
  templates: Record<string, string>;
  /** The tokenizer's special tokens as template variables (bos_token, eos_token, …). */
  specialTokens: Record<string, string | string[]>;
}

export interface ChatTemplateRules {
  /** Template variables after the special tokens (chat_template_args, enable_thinking). */
  variables: Record<string, unknown>;
  /** lm-eval's retry without system messages when the template raises (its vllm and hf backends). */
  retryWithoutSystem: boolean;
  /** The lm-eval backend whose rule this is, for messages. */
  backend: string;
}

/** A backend's templates, or why it has none (where it looked), for the message of a run that needs one. */
export type ChatTemplateLookup = { templates: ChatTemplates } | { missing: string };

/** What a backend's info() records of its chat templates. */
export function chatTemplateInfo(
  lookup: ChatTemplateLookup,
): { chatTemplateSource: string } | { chatTemplateMissing: string } {
  return 'templates' in lookup
    ? { chatTemplateSource: lookup.templates.source.origin }
    : { chatTemplateMissing: lookup.missing };
}

export class ChatTemplates implements ChatTemplating {
  constructor(
    readonly source: ChatTemplateSource,
    private readonly rules: ChatTemplateRules,
    /** The clock strftime_now reads (tests fix it). */
    private readonly now?: () => Date,
  ) {}

  /** The template a run uses: the named one, else the only one, else `default`. */
  select(name?: string): { name: string; text: string } {
    const { templates, origin } = this.source;
    const names = Object.keys(templates).sort();
    const listed = names.map((entry) => JSON.stringify(entry)).join(', ');
    if (name !== undefined) {
      if (names.length === 1 && names[0] === 'default' && name !== 'default') {
        throw new AssayError(
          'bad_option',
          `\`applyChatTemplate\` "${name}": ${origin} has a single chat template, no named ones; pass applyChatTemplate=true`,
          { location: { field: 'applyChatTemplate' } },
        );
      }
      const text = templates[name];
      if (text === undefined) {
        throw new AssayError(
          'bad_option',
          `\`applyChatTemplate\` "${name}": ${origin} has no chat template of that name; it has ${listed}`,
          { location: { field: 'applyChatTemplate' } },
        );
      }
      return { name, text };
    }
    const text = templates.default;
    if (text === undefined) {
      throw new AssayError(
        'bad_option',
        `${origin} has several chat templates and none named "default"; name one with applyChatTemplate (${listed})`,
        { location: { field: 'applyChatTemplate' } },
      );
    }
    return { name: 'default', text };
  }

  applyChatTemplate(
    messages: ChatMessage[],
    options: Parameters<ChatTemplating['applyChatTemplate']>[1],
  ): string {
    const { name, text } = this.select(options.templateName);
    const render = (chat: ChatMessage[]) =>
      renderChatTemplate(text, chat, {
        addGenerationPrompt: options.addGenerationPrompt,
        continueFinalMessage: options.continueFinalMessage ?? !options.addGenerationPrompt,
        variables: { ...this.source.specialTokens, ...this.rules.variables, ...options.variables },
        now: this.now,
      });
    const label = `chat template "${name}" of ${this.source.origin}`;
    try {
      return render(messages);
    } catch (error) {
      if (!(error instanceof TemplateRaised)) throw located(error, label);
      const hasSystem = messages.some((message) => message.role === 'system');
      if (!this.rules.retryWithoutSystem || !hasSystem) {
        const rule = hasSystem
          ? ` (lm-eval's ${this.rules.backend} backend does not retry without the system message)`
          : '';
        throw new AssayError('template_error', `${label} raised: ${error.message}${rule}`, { cause: error });
      }
      options.warn?.(
        `${label} raised "${error.message}"; rendering again without the system message, as lm-eval's ${this.rules.backend} backend does`,
      );
      try {
        return render(messages.filter((message) => message.role !== 'system'));
      } catch (again) {
        if (again instanceof TemplateRaised) {
          throw new AssayError(
            'template_error',
            `${label} raised: ${error.message}; and without the system message: ${again.message}`,
            { cause: again },
          );
        }
        throw located(again, label);
      }
    }
  }

  chatTemplate(templateName?: string): string {
    return this.select(templateName).text;
  }
}

function located(error: unknown, label: string): unknown {
  if (error instanceof AssayError && error.code === 'template_error') {
    return new AssayError('template_error', `${label}: ${error.message}`, { cause: error });
  }
  return error;
}
