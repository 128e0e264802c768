/**
 * The Vite dev server, where there is no bundle: the program module is linked when the browser
 * asks for it, over every device module compiled so far (after transforms in flight settle). An
 * edit to a device module invalidates the compiled modules and the program; Vite reloads the
 * page (no module accepts the update), which fetches the relinked program. A device module first
 * compiled after the program was served (a dynamic import) also reloads the page.
 */
import type { ViteDevServer } from 'vite';
import type { LinkOutcome } from '../device-modules.js';
import { programLiteral, RESOLVED_PROGRAM_MODULE } from '../program-module.js';
import type { PluginState } from '../state.js';

export class DevProgram {
  readonly #state: PluginState;
  readonly #inFlight = new Set<Promise<unknown>>();
  #server: ViteDevServer | null = null;
  /** Module paths the served program was linked from; null until it is served. */
  #served: ReadonlySet<string> | null = null;

  constructor(state: PluginState) {
    this.#state = state;
  }

  attach(server: ViteDevServer): void {
    this.#server = server;
  }

  get active(): boolean {
    return this.#server !== null;
  }

  /** Tracks a transform, so that the program waits for it. */
  track<T>(transform: Promise<T>): Promise<T> {
    this.#inFlight.add(transform);
    const done = () => this.#inFlight.delete(transform);
    transform.then(done, done);
    return transform;
  }

  /** After a device module compiled: a module the served program lacks needs a new page. */
  compiled(path: string): void {
    if (this.#served && !this.#served.has(path)) {
      this.#invalidate();
      this.#server?.ws.send({ type: 'full-reload' });
    }
  }

  /** A device module's file changed: everything compiled from device code is stale. */
  fileChanged(file: string): void {
    if (this.#state.isDeviceModule(file)) this.#invalidate();
  }

  /** The program module's code, linked now. */
  async code(): Promise<LinkOutcome & { code?: string }> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    const linked = this.#state.modules.link(this.#state.options);
    if (!linked.ok) return linked;
    this.#served = new Set(this.#state.modules.paths());
    return { ...linked, code: `export default JSON.parse(${programLiteral(linked.program)});\n` };
  }

  #invalidate(): void {
    const graph = this.#server?.moduleGraph;
    if (!graph) return;
    for (const module of graph.idToModuleMap.values()) {
      if (
        module.id &&
        (this.#state.isDeviceModule(module.id) || module.id === RESOLVED_PROGRAM_MODULE)
      ) {
        graph.invalidateModule(module);
      }
    }
    this.#served = null;
  }
}
