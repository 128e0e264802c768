/** Three mistakes, each refused before anything runs, each a SyclError that says what and where. */
import { Queue, SyclError } from '@syclts/runtime';
import type { Print } from '../.vitepress/theme/live.ts';
import { fill, offset, results } from './reading-errors.sycl.ts';

export async function run(print: Print) {
  const queue = await Queue.create();
  const out = queue.buffer(new Uint32Array(4));
  const caught: { errc: string; message: string }[] = [];
  const attempt = async (what: string, mistake: () => Promise<unknown>) => {
    try {
      await mistake();
      print(`${what}: not refused`);
    } catch (error) {
      if (!(error instanceof SyclError)) throw error;
      caught.push({ errc: error.errc, message: error.message });
      print(`${what}:\n  errc.${error.errc}: ${error.message}`);
    }
  };

  await attempt('a value that does not fit its constant', () =>
    queue
      .submit((cgh) => {
        cgh.setSpecializationConstant(offset, -1);
        cgh.parallelFor([4], fill, { out });
      })
      .wait(),
  );
  await attempt('a copy into a global the host may only read', () =>
    // @ts-expect-error the types refuse it too: hostAccess 'read' has no copy to the global
    queue.copy([1, 2, 3, 4], results).wait(),
  );
  await attempt('a kernel argument missing', () =>
    // @ts-expect-error the types refuse it too: `out` is missing
    queue.parallelFor(4, fill, {}).wait(),
  );
  return caught;
}
