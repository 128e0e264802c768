/** Where the CLI reads and writes: the process, or a test's capture. */
export interface CliIo {
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}
