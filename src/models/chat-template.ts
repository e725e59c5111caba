import { Template } from '@huggingface/jinja';
import type { ChatMessage } from './backend.js';

const compiled = new Map<string, Template>();

/** Renders a model's Jinja chat template, as `tokenizer.apply_chat_template` does. */
export function renderChatTemplate(
  source: string,
  messages: ChatMessage[],
  addGenerationPrompt: boolean,
  extra: Record<string, unknown> = {},
): string {
  let template = compiled.get(source);
  if (!template) {
    template = new Template(source);
    compiled.set(source, template);
  }
  return template.render({
    messages,
    add_generation_prompt: addGenerationPrompt,
    bos_token: '',
    eos_token: '',
    ...extra,
  });
}
