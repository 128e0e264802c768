/**
 * Every message of the `syclts` command line (SYCL3xxx), one function per kind of message, as
 * the front end's and the link step's are.
 */
import { type Message, message } from './codes.js';

// SYCL3001: a source the CLI cannot read

/** `cause`: the system's error code (`ENOENT`), or the error as text. */
export function unreadableSource(file: string, cause: string): Message {
  return message('SYCL3001', `cannot read ${file}: ${cause}`);
}

// SYCL3002: no program for `syclts inspect`

export function unreadableProgram(error: string): Message {
  return message('SYCL3002', `cannot read a program written by 'syclts build' (${error})`);
}

// SYCL3003: a source outside the root

export function outsideRoot(root: string): Message {
  return message(
    'SYCL3003',
    `outside the root ${root}, which module paths (and so symbolic IDs) are relative to; pass --root`,
  );
}
