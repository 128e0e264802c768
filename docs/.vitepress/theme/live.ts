/** What a live example is: a module whose `run` prints lines and returns what it computed. */
export type Print = (line: string) => void;

export interface LiveModule {
  run(print: Print): Promise<unknown>;
}
