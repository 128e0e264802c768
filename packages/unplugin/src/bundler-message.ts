/**
 * A compile diagnostic in the shape each bundler prints best: Rollup, Rolldown and Vite print
 * the error's location and code frame themselves (Vite's dev overlay from them too), so they get
 * those apart, with Rollup's 0-based column; esbuild, webpack and rspack get one text that leads
 * with `file:line:col` (esbuild would show a location without its source line, which unplugin
 * does not pass on).
 */
import type { UnpluginContextMeta, UnpluginMessage } from 'unplugin';
import type { BundlerMessage } from './transform.js';

/** Rollup's error shape, which Rollup, Rolldown and Vite accept from `this.error`. */
type RollupLikeMessage = UnpluginMessage & { readonly frame?: string };

export function bundlerMessage(
  messages: readonly BundlerMessage[],
  framework: UnpluginContextMeta['framework'],
): RollupLikeMessage {
  const [first, ...rest] = messages;
  if (!first) throw new Error('bundlerMessage: no message');
  const located = first.located;
  const rollupLike = framework === 'rollup' || framework === 'rolldown' || framework === 'vite';
  if (!rollupLike || !located) {
    return { id: first.id, message: messages.map((m) => m.message).join('\n\n') };
  }
  return {
    id: first.id,
    message: [located.headline, ...rest.map((m) => m.message)].join('\n\n'),
    loc: { file: located.file, line: located.line, column: located.column - 1 },
    frame: located.frame,
  };
}
