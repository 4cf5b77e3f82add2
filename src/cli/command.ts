/** One CLI verb. `run` returns the exit code: 0 ok, 1 check failed, 2 operational error. */
export interface CliIO {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** True when stdout is a terminal (progress bars, colour); JSON lines otherwise. */
  readonly isTTY: boolean;
  /**
   * The source password when an earlier step of this process already read it (the secret channel and stdin can be
   * read once): the `index` verb's quick unchanged check hands it on to the full run.
   */
  readonly prefetchedPassword?: { readonly value: string | undefined };
}

export interface CliCommand {
  /** Verb path, e.g. `index` or `audit verify`. */
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(argv: readonly string[], io: CliIO): Promise<number>;
}

export const EXIT_OK = 0;
export const EXIT_CHECK_FAILED = 1;
export const EXIT_OPERATIONAL = 2;
