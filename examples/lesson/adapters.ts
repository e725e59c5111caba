/**
 * Two scripted adapters for the lesson's five fixture tasks (this folder): the adapter is the only
 * model-specific code, and any object implementing assay's `ModelBackend` is one. `ScriptedAdapter`
 * answers every task right by rule, as the lesson's toy adapter does (compute the sum, take the first
 * sentence, write the function the prompt names, pick the first option, echo the text): overall 1.0.
 * `SilentAdapter` answers nothing: overall 0.0. Swap in a real model and only the numbers move.
 *
 *   npm run build && npx tsx examples/lesson/run.ts
 */
import type { BackendCapabilities, GenerateCallOptions, ModelBackend, ModelInfo } from 'assay/backend';

/** A generation-only adapter: `answer` maps one prompt to one reply. */
abstract class GenerationAdapter implements ModelBackend {
  readonly specificationVersion = 'v2';
  abstract readonly name: string;
  readonly capabilities: BackendCapabilities = {
    loglikelihood: false,
    loglikelihoodRolling: false,
    generate: true,
    tokenScoring: false,
    generationLogprobs: false,
    chatTemplate: false,
    usage: false,
  };

  protected abstract answer(prompt: string): string;

  async generate({ requests }: GenerateCallOptions): Promise<string[]> {
    return requests.map((request) => this.answer(request.context));
  }

  async loglikelihood(): Promise<never[]> {
    throw new Error(`${this.name} only generates`);
  }

  async loglikelihoodRolling(): Promise<never[]> {
    throw new Error(`${this.name} only generates`);
  }

  info(): ModelInfo {
    return { name: this.name };
  }
}

/** The Python function each code prompt asks for, by the verb in the prompt. */
const FUNCTIONS: Array<[RegExp, string]> = [
  [/\bdoubles?\b/, 'def f(x):\n    return x * 2\n'],
  [/\bincrements?\b/, 'def f(x):\n    return x + 1\n'],
  [/\bsquares?\b/, 'def f(x):\n    return x * x\n'],
];

export class ScriptedAdapter extends GenerationAdapter {
  readonly name = 'scripted';

  protected answer(prompt: string): string {
    const [kind, ...rest] = prompt.split(':');
    const body = rest.join(':').trim();
    switch (kind.trim()) {
      case 'compute': {
        const match = /^(-?\d+)\s*([-+*])\s*(-?\d+)$/.exec(body);
        if (!match) return '';
        const [a, b] = [Number(match[1]), Number(match[3])];
        return String(match[2] === '+' ? a + b : match[2] === '-' ? a - b : a * b);
      }
      case 'summarize':
        return body.split(/(?<=[.!?])\s+/)[0] ?? body;
      case 'python':
        return FUNCTIONS.find(([verb]) => verb.test(body))?.[1] ?? 'def f(x):\n    return x\n';
      case 'choose': {
        // "which ...? A | dog, B | lizard, C | sparrow": the first option's letter.
        const options = body.slice(body.indexOf('?') + 1).trim();
        return options.slice(0, 1).toUpperCase();
      }
      case 'write':
        return body;
      default:
        return '';
    }
  }
}

export class SilentAdapter extends GenerationAdapter {
  readonly name = 'silent';

  protected answer(): string {
    return '';
  }
}
