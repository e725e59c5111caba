/**
 * The part of cli-progress (3.12, plain JavaScript) that progress-tty.ts uses. Declared here rather than
 * through @types/cli-progress: these few members are all assay calls, and a type package would be one more
 * dependency to install for them.
 */
declare module 'cli-progress' {
  namespace cliProgress {
    interface Params {
      progress: number;
      value: number;
      total: number;
      maxWidth: number;
    }
    interface Options {
      stream?: NodeJS.WritableStream;
      format?: (options: Options, params: Params, payload: Record<string, unknown>) => string;
      fps?: number;
      clearOnComplete?: boolean;
      hideCursor?: boolean;
      linewrap?: boolean | null;
      gracefulExit?: boolean;
    }
    class SingleBar {
      update(value: number, payload?: Record<string, unknown>): void;
      setTotal(total: number): void;
    }
    class MultiBar {
      constructor(options: Options);
      create(total: number, startValue: number, payload?: Record<string, unknown>): SingleBar;
      remove(bar: SingleBar): boolean;
      log(text: string): void;
      update(): void;
      stop(): void;
    }
  }
  export = cliProgress;
}
