/**
 * The prompt for one doc, assembled as lm-eval's `ConfigurableTask.fewshot_context` and `build_qa_turn`
 * do (lm_eval/api/task.py, lm_eval/api/utils.py at 4e7e0d47):
 *
 *   plain text: description + Σ(text_i + target_delimiter + answer_i + fewshot_delimiter) + text
 *
 * Each turn is a message carrying the delimiter that follows it in plain text. With a chat template the
 * delimiters are dropped: either every shot stays a user/assistant pair (fewshot_as_multiturn) or
 * everything after the system message is flattened into one user message, with the plain-text delimiters
 * and without the last one. The system instruction and the description form the system message.
 */
import { AssayError } from '../errors.js';
import type { ChatMessage } from '../models/backend.js';
import { pythonStr } from '../python/semantics/literal.js';
import { characters, isSpace } from '../python/semantics/string.js';
import { pythonIndex } from '../python/semantics/values.js';
import type { Doc } from '../task-config/doc.js';
import type { TaskConfig } from '../task-config/task-config.js';
import {
  type DocLocation,
  type DocText,
  docToChoice,
  docToTarget,
  docToText,
  resolveField,
} from './doc-to.js';

/** The config fields prompt assembly reads. */
export type ContextConfig = Pick<
  TaskConfig,
  | 'task'
  | 'doc_to_text'
  | 'doc_to_target'
  | 'doc_to_choice'
  | 'description'
  | 'gen_prefix'
  | 'target_delimiter'
  | 'fewshot_delimiter'
  | 'fewshot_config'
>;

export interface ChatRendering {
  /** The model's chat template; `addGenerationPrompt` is false when the prompt ends in an assistant prefill. */
  render: (messages: ChatMessage[], addGenerationPrompt: boolean) => string;
  fewshotAsMultiturn: boolean;
}

export interface BuildContextInput {
  config: ContextConfig;
  doc: Doc;
  location: DocLocation;
  /** The shots drawn for this doc (FewshotSampler.sample), in order. */
  fewshotDocs?: readonly Doc[];
  /**
   * Multiple-input tasks (winogrande): the context text of one choice, in place of doc_to_text. lm-eval's
   * `multiple_input_context` builds that final turn with an empty target delimiter.
   */
  textOverride?: string;
  systemInstruction?: string;
  /** Set when a chat template is applied (`--apply_chat_template`). */
  chat?: ChatRendering;
  features?: ReadonlySet<string>;
  /**
   * Each few-shot doc's rendered turns, kept across the docs of one task (createFewshotCache): a shot is
   * drawn for many docs (first_n gives every doc the same five) and renders the same each time. One
   * cache per task and config, since the turns depend on both.
   */
  fewshotCache?: FewshotCache;
  /**
   * The doc's doc_to_text, when the caller has rendered it already (the planner reads it to tell
   * multiple-input tasks apart): the prompt's last turn uses it instead of rendering the template again.
   */
  text?: DocText;
}

/** Rendered few-shot turns by shot doc, and the last plain-text opening; opaque outside this file. */
export interface FewshotCache {
  turns: WeakMap<Doc, readonly Turn[]>;
  /**
   * The plain text before the last doc's own turn (system message and shots), with the system text and
   * shots it was built from: docs that share their shots (first_n's one draw) share this text.
   */
  opening?: { system: string; shots: readonly Doc[]; text: string };
}

export function createFewshotCache(): FewshotCache {
  return { turns: new WeakMap() };
}

export interface BuiltContext {
  /** The prompt: plain text, or the chat template's output. */
  context: string;
  /**
   * The messages the chat template receives (or would receive: without a chat template, the flattened
   * single-turn form), for chat-completions backends and sample logs.
   */
  messages: ChatMessage[];
  /** What goes before each multiple-choice continuation: "" under a chat template unless gen_prefix needs it. */
  targetDelimiter: string;
}

export interface Turn {
  role: ChatMessage['role'];
  content: string;
  /** Follows the content in plain text only. */
  delimiter: string;
}

/** lm-eval's `maybe_delimit`: join with the delimiter unless either side already has whitespace there. */
export function maybeDelimit(
  prefix: string | undefined,
  suffix: string | undefined,
  delimiter = ' ',
): string {
  if (!prefix) return suffix ?? '';
  if (!suffix) return prefix;
  return endsWithWhitespace(prefix) || isSpace(characters(suffix)[0])
    ? prefix + suffix
    : prefix + delimiter + suffix;
}

function endsWithWhitespace(text: string): boolean {
  const chars = characters(text);
  return chars.length > 0 && isSpace(chars[chars.length - 1]);
}

/** lm-eval's `requires_delimiter`: neither side has whitespace at the join. */
function requiresDelimiter(prefix: string, suffix: string): boolean {
  if (prefix === '') return false;
  return !(endsWithWhitespace(prefix) || isSpace(characters(suffix)[0] ?? ''));
}

interface QaTurn {
  question: string;
  choices?: string[];
  answer?: unknown;
  genPrefix?: string;
  targetDelimiter: string;
  fewshotDelimiter: string;
  location: DocLocation;
}

/** lm-eval's `build_qa_turn`: a user turn, then the answer (or the gen_prefix prefill) as an assistant turn. */
function qaTurn({
  question,
  choices,
  answer,
  genPrefix,
  targetDelimiter,
  fewshotDelimiter,
  location,
}: QaTurn): Turn[] {
  const hasAnswer = answer !== undefined && answer !== null && answer !== '';
  const userDelimiter =
    hasAnswer && !genPrefix
      ? targetDelimiter
      : genPrefix && requiresDelimiter(question, genPrefix)
        ? targetDelimiter
        : '';
  const turns: Turn[] = [{ role: 'user', content: question, delimiter: userDelimiter }];
  if (hasAnswer) {
    let text: unknown;
    if (choices && choices.length > 0 && typeof answer === 'number' && Number.isInteger(answer)) {
      text = pythonIndex(choices, answer);
      if (text === undefined) {
        throw new AssayError(
          'template_error',
          `few-shot doc ${location.docId}: target ${answer} is out of range for ${choices.length} choices`,
          { location: { ...location, field: 'doc_to_target' } },
        );
      }
    } else text = Array.isArray(answer) ? answer[0] : answer;
    if (typeof text !== 'string') {
      // lm-eval asserts here too ("Answer is not a string!"): an int target needs doc_to_choice.
      throw new AssayError(
        'template_error',
        `few-shot doc ${location.docId} of task ${location.task}: the answer is not a string: ${pythonStr(answer)}`,
        { location: { ...location, field: 'doc_to_target' } },
      );
    }
    turns.push({
      role: 'assistant',
      content: maybeDelimit(genPrefix, text, ' '),
      delimiter: fewshotDelimiter,
    });
  } else if (genPrefix) {
    turns.push({ role: 'assistant', content: genPrefix, delimiter: '' });
  }
  return turns;
}

/**
 * The turns with their delimiters, as one flat string. `+=` would build a rope (a node per piece) that V8
 * flattens into a copy the first time the prompt is hashed, compared or read by character, keeping both;
 * `join` writes the characters once.
 */
function plainText(turns: readonly Turn[]): string {
  const parts: string[] = [];
  for (const turn of turns) parts.push(turn.content, turn.delimiter);
  return parts.join('');
}

function toMessage(turn: Turn): ChatMessage {
  return { role: turn.role, content: turn.content };
}

/** lm-eval's `multiturn_to_singleturn`: [system?] + one user message (+ the assistant prefill, if any). */
function flattenToSingleTurn(turns: readonly Turn[]): ChatMessage[] {
  const system = turns[0]?.role === 'system' ? turns[0] : undefined;
  const rest = system ? turns.slice(1) : [...turns];
  const last = rest[rest.length - 1];
  const prefill = last?.role === 'assistant' ? last : undefined;
  const userTurns = prefill ? rest.slice(0, -1) : rest;
  const withoutLastDelimiter = userTurns.map((turn, index) =>
    index === userTurns.length - 1 ? { ...turn, delimiter: '' } : turn,
  );
  const messages: ChatMessage[] = [{ role: 'user', content: plainText(withoutLastDelimiter) }];
  if (prefill) messages.push(toMessage(prefill));
  return system ? [toMessage(system), ...messages] : messages;
}

/**
 * The few-shot examples' turns, each shot rendered (or taken from `fewshotCache`); exported for the
 * planner's check of a chunked task (evaluate/plan.ts checkDocs), which renders each shot once ahead.
 */
export function fewshotTurns(input: BuildContextInput): Turn[] {
  const { config, location } = input;
  const fewshot = config.fewshot_config ?? {};
  // FewshotConfig inherits every formatting field from the task config when it does not set it.
  const textField = fewshot.doc_to_text ?? config.doc_to_text;
  const targetField = fewshot.doc_to_target ?? config.doc_to_target;
  const choiceField = fewshot.doc_to_choice ?? config.doc_to_choice;
  // `if self.fewshot_cfg.doc_to_choice`: Python truthiness, so an empty list or dict counts as unset.
  const hasChoices =
    typeof choiceField === 'object' && choiceField !== null && !('kind' in choiceField)
      ? Object.keys(choiceField).length > 0
      : Boolean(choiceField);
  const genPrefixField = fewshot.gen_prefix ?? config.gen_prefix;
  const targetDelimiter = fewshot.target_delimiter ?? config.target_delimiter;
  const fewshotDelimiter = fewshot.fewshot_delimiter ?? config.fewshot_delimiter;
  const turns: Turn[] = [];
  const cache = input.fewshotCache;
  (input.fewshotDocs ?? []).forEach((shot, shotIndex) => {
    const cached = cache?.turns.get(shot);
    if (cached) {
      for (const turn of cached) turns.push(turn);
      return;
    }
    const shotLocation = { task: location.task, docId: `${location.docId}/fewshot ${shotIndex}` };
    const options = { features: input.features };
    let question = docToText(config, shot, shotLocation, { ...options, field: textField });
    let choices = hasChoices
      ? docToChoice(config, shot, shotLocation, { ...options, field: choiceField })
      : undefined;
    const answer = docToTarget(config, shot, shotLocation, { ...options, field: targetField });
    const genPrefix = resolveField(genPrefixField, shot, shotLocation, 'gen_prefix');
    if (typeof question === 'number') {
      // Multiple-input tasks: the text is the index of the context among the choices.
      const context = choices ? pythonIndex(choices, question) : undefined;
      if (context === undefined) {
        throw new AssayError(
          'template_error',
          `few-shot doc ${shotLocation.docId}: doc_to_text gave ${question}, which indexes no choice`,
          {
            location: { ...shotLocation, field: 'doc_to_text' },
          },
        );
      }
      question = context;
      choices = undefined;
    }
    const shotTurns = qaTurn({
      question,
      choices,
      answer,
      genPrefix,
      targetDelimiter,
      fewshotDelimiter,
      location: shotLocation,
    });
    cache?.turns.set(shot, shotTurns);
    turns.push(...shotTurns);
  });
  return turns;
}

/** The system message's text: the system instruction and the description, `maybe_delimit`ed. */
function systemText(input: BuildContextInput): string {
  const { config, doc, location } = input;
  const description = resolveField(config.description, doc, location, 'description') ?? '';
  return maybeDelimit(input.systemInstruction, description, config.fewshot_delimiter);
}

/** The turns before the doc's own: the system message (if any) and the shots. */
function openingTurns(input: BuildContextInput, system: string): Turn[] {
  const turns: Turn[] = [];
  if (system) turns.push({ role: 'system', content: system, delimiter: '' });
  for (const turn of fewshotTurns(input)) turns.push(turn);
  return turns;
}

/** The doc's own turn (and its gen_prefix prefill), with the gen_prefix it ends in (if any). */
function closingTurns(input: BuildContextInput): { turns: Turn[]; genPrefix: string | undefined } {
  const { config, doc, location } = input;
  const genPrefix =
    config.gen_prefix === undefined
      ? undefined
      : (resolveField(config.gen_prefix, doc, location, 'gen_prefix') ?? '');
  if (input.textOverride !== undefined) {
    const turns = qaTurn({
      question: input.textOverride,
      genPrefix,
      targetDelimiter: '',
      fewshotDelimiter: '',
      location,
    });
    return { turns, genPrefix };
  }
  const question = input.text ?? docToText(config, doc, location, { features: input.features });
  if (typeof question !== 'string') {
    throw new AssayError(
      'template_error',
      `doc_to_text of task ${location.task} gave ${pythonStr(question)} for doc ${location.docId}; a multiple-input task needs textOverride`,
      { location: { ...location, field: 'doc_to_text' } },
    );
  }
  const turns = qaTurn({
    question,
    genPrefix,
    targetDelimiter: config.target_delimiter,
    fewshotDelimiter: '',
    location,
  });
  return { turns, genPrefix };
}

/** The turns of one doc's prompt, and the gen_prefix its last turn ends in (if any). */
function contextTurns(input: BuildContextInput): { turns: Turn[]; genPrefix: string | undefined } {
  const turns = openingTurns(input, systemText(input));
  const closing = closingTurns(input);
  for (const turn of closing.turns) turns.push(turn);
  return { turns, genPrefix: closing.genPrefix };
}

/** The same shots: one array, or none either time. */
function sameShots(a: readonly Doc[], b: readonly Doc[]): boolean {
  return a === b || (a.length === 0 && b.length === 0);
}

/**
 * A plain-text prompt: the opening (system message and shots), from the cache when the doc before had
 * the same, then the doc's own turn. Rendered in the order contextTurns renders, so a broken template
 * fails on the same field.
 */
function plainPrompt(input: BuildContextInput): string {
  const system = systemText(input);
  const shots = input.fewshotDocs ?? [];
  const cache = input.fewshotCache;
  const known = cache?.opening;
  let opening: string;
  if (known && known.system === system && sameShots(known.shots, shots)) opening = known.text;
  else {
    opening = plainText(openingTurns(input, system));
    if (cache) cache.opening = { system, shots, text: opening };
  }
  const parts = [opening];
  for (const turn of closingTurns(input).turns) parts.push(turn.content, turn.delimiter);
  return parts.join('');
}

/** What a request needs of a doc's prompt: buildContext without the messages. */
export type BuiltPrompt = Omit<BuiltContext, 'messages'>;

/**
 * The prompt for one doc, as buildContext builds it, without the chat messages when no chat template
 * reads them: the planner sends the context only, and the flattened messages of a plain-text prompt
 * would be a second copy of it per doc.
 */
export function buildPrompt(input: BuildContextInput): BuiltPrompt {
  const { config, chat } = input;
  if (!chat) return { context: plainPrompt(input), targetDelimiter: config.target_delimiter };
  const { turns, genPrefix } = contextTurns(input);
  const messages = chat.fewshotAsMultiturn ? turns.map(toMessage) : flattenToSingleTurn(turns);
  return { context: chat.render(messages, !genPrefix), targetDelimiter: chatTargetDelimiter(config) };
}

/** Under a chat template the choice follows the prompt directly, unless gen_prefix ends in a non-space. */
function chatTargetDelimiter(config: ContextConfig): string {
  return config.gen_prefix && !endsWithWhitespace(config.gen_prefix) ? config.target_delimiter : '';
}

/** The prompt for one doc, exactly as lm-eval builds it. */
export function buildContext(input: BuildContextInput): BuiltContext {
  const { config, chat } = input;
  const { turns, genPrefix } = contextTurns(input);
  const messages = chat?.fewshotAsMultiturn ? turns.map(toMessage) : flattenToSingleTurn(turns);
  if (!chat) return { context: plainText(turns), messages, targetDelimiter: config.target_delimiter };
  return {
    context: chat.render(messages, !genPrefix),
    messages,
    targetDelimiter: chatTargetDelimiter(config),
  };
}

/** True for multiple-input tasks (winogrande): lm-eval decides it on the first eval doc. */
export function isMultipleInput(config: ContextConfig, firstDoc: Doc, location: DocLocation): boolean {
  return config.doc_to_choice !== undefined && typeof docToText(config, firstDoc, location) === 'number';
}

/** The continuations scored for a multiple-choice doc: `target_delimiter + choice` (construct_requests). */
export function multipleChoiceContinuations(
  config: Pick<TaskConfig, 'target_delimiter'>,
  choices: readonly string[],
  targetDelimiter: string = config.target_delimiter,
): string[] {
  return choices.map((choice) => `${targetDelimiter}${choice}`);
}
