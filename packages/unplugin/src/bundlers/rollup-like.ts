/**
 * Rollup, Vite (build) and Rolldown: link in `buildEnd`, when the module graph is complete, and
 * replace the placeholder in `renderChunk`, with an exact source map.
 */
import MagicString from 'magic-string';
import type { LinkOutcome } from '../device-modules.js';
import { rootRelativePath } from '../module-path.js';
import { findPlaceholders, programLiteral } from '../program-module.js';
import type { PluginState } from '../state.js';

interface RollupLikeContext {
  getModuleIds(): IterableIterator<string>;
  warn(message: string): void;
  error(message: string): never;
}

export function rollupLikeHooks(state: PluginState) {
  let linked: LinkOutcome | null = null;
  return {
    buildEnd(this: RollupLikeContext, error?: Error) {
      linked = null;
      if (error) return;
      const inBundle = new Set<string>();
      for (const id of this.getModuleIds()) {
        if (state.isDeviceModule(id)) inBundle.add(rootRelativePath(state.root, id));
      }
      linked = state.modules.link(state.options, (path) => inBundle.has(path));
      for (const warning of linked.warnings) this.warn(warning);
      if (!linked.ok) this.error(linked.errors.join('\n\n'));
    },
    renderChunk(this: RollupLikeContext, code: string) {
      const places = findPlaceholders(code);
      if (places.length === 0) return null;
      if (!linked?.ok) this.error('unplugin-syclts: the device program was not linked');
      const literal = programLiteral(linked.program);
      const output = new MagicString(code);
      for (const { start, end } of places) output.overwrite(start, end, literal);
      return { code: output.toString(), map: output.generateMap({ hires: true }) };
    },
  };
}
