/**
 * The Vite dev server, where there is no bundle: the program module is linked when the browser
 * asks for it, over the device modules the page imports (after transforms in flight settle):
 * those the module graph reaches from the page's entries. A device module the page no longer
 * imports, or whose file was deleted, is left out.
 *
 * Hot updates: device modules and the program module accept their own updates, so an edit to a
 * device module never reaches the host modules that import it. The update re-runs the edited
 * module (its footer attaches the new host objects) and the relinked program module, which
 * `relink`s every host object attached to its earlier versions, those the page imported before
 * the edit included, to the new program (other programs in the page keep theirs). A device
 * module first compiled after the program was served (a dynamic import) reloads the page.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ModuleNode, ViteDevServer } from 'vite';
import type { LinkOutcome } from '../device-modules.js';
import { rootRelativePath, stripQuery } from '../module-path.js';
import { programLiteral, RESOLVED_PROGRAM_MODULE } from '../program-module.js';
import type { PluginState } from '../state.js';

const OVERLAY_EVENT = 'syclts:gpu-error';

/**
 * In the page, with the program module: a SyclError the page left unhandled (a rejection, or
 * a module's top-level await) that names a
 * `.sycl.ts` place (a GPU compile error, say) goes to the dev server, which shows it in Vite's
 * error overlay.
 */
const OVERLAY_CLIENT = `  const report = (error) => {
    if (error && error.name === 'SyclError' && /^[^\\s:]+\\.sycl\\.ts:\\d+:\\d+:/.test(error.message)) {
      import.meta.hot.send('${OVERLAY_EVENT}', { message: error.message });
    }
  };
  window.addEventListener('unhandledrejection', (event) => report(event.reason));
  window.addEventListener('error', (event) => report(event.error));`;

/** Appended to each device module after its footer: the module takes its own updates. */
export const SELF_ACCEPT = '\nif (import.meta.hot) import.meta.hot.accept();\n';

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
    // A GPU error the page did not handle, shown in Vite's overlay at its .sycl.ts place.
    server.ws.on(OVERLAY_EVENT, (data: { message?: unknown }) => {
      const message = String(data?.message ?? '');
      const place = /^([^\s:]+\.sycl\.ts):(\d+):(\d+):/.exec(message);
      server.ws.send({
        type: 'error',
        err: {
          message,
          stack: '',
          plugin: 'unplugin-syclts',
          ...(place && {
            id: place[1]!,
            loc: {
              file: resolve(this.#state.root, place[1]!),
              line: Number(place[2]),
              column: Number(place[3]),
            },
          }),
        },
      });
    });
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

  /**
   * A file changed: when it is a device module, everything compiled from device code is stale
   * (a module's compilation reads the device modules it imports), and the program module joins
   * the modules to update.
   */
  fileChanged(file: string, modules: readonly ModuleNode[]): ModuleNode[] | undefined {
    if (!this.#state.isDeviceModule(file)) return undefined;
    this.#invalidate();
    const program = this.#server?.moduleGraph.getModuleById(RESOLVED_PROGRAM_MODULE);
    return program ? [...modules, program] : [...modules];
  }

  /** The program module's code, linked now. */
  async code(): Promise<LinkOutcome & { code?: string }> {
    await this.#recompileStale();
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    const imported = this.#imported();
    const linked = this.#state.modules.link(this.#state.options, (path) => imported.has(path));
    if (!linked.ok) return linked;
    this.#served = imported;
    return {
      ...linked,
      code: [
        "import { relink } from '@syclts/dsl';",
        `const program = JSON.parse(${programLiteral(linked.program)});`,
        // Replaces this module's version before the update, and no other program in the page.
        'relink(program, import.meta.hot?.data.program);',
        'export default program;',
        'if (import.meta.hot) {',
        '  import.meta.hot.data.program = program;',
        '  import.meta.hot.accept();',
        OVERLAY_CLIENT,
        '}',
        '',
      ].join('\n'),
    };
  }

  /**
   * The source of an imported device module, through the dev server's own pipeline: every
   * plugin's `load` and `transform` hooks run (`this.load` in Vite's dev server runs the transforms
   * only for code a plugin's `load` made, and enters the module in the graph with its file path
   * for URL), and this plugin's transform records the source it began with.
   */
  async load(id: string): Promise<string> {
    const file = stripQuery(id);
    // A module whose transform is under way (an import cycle) is not requested again: the request
    // would wait for the transform that waits for it.
    const inTransform = this.#state.sources.inTransform(file);
    if (inTransform !== undefined) return inTransform;
    const server = this.#server;
    if (server) {
      const root = server.config.root;
      const inRoot = relative(root, file);
      const url =
        server.moduleGraph.getModuleById(id)?.url ??
        (inRoot.startsWith('..') || isAbsolute(inRoot)
          ? `/@fs${file}`
          : `/${inRoot.split(sep).join('/')}`);
      // A module that no longer compiles reports its error when the browser asks for it.
      await server.transformRequest(url).catch(() => {});
    }
    return this.#state.sources.latest(file) ?? readFile(file, 'utf8');
  }

  /** A file was deleted: a device module of it is in no later link. */
  fileDeleted(file: string): void {
    if (this.#state.isDeviceModule(file)) {
      this.#state.modules.delete(rootRelativePath(this.#state.root, file));
    }
  }

  /**
   * The device modules the page imports, as root-relative paths: those the module graph reaches
   * from its entries (modules nothing imports, a device module aside: a `.sycl.ts` module nothing
   * imports any longer is one the page dropped). Dynamic imports count, loaded or not.
   */
  #imported(): Set<string> {
    const graph = this.#server?.moduleGraph;
    const imported = new Set<string>();
    if (!graph) return imported;
    const pending = [...graph.idToModuleMap.values()].filter(
      (module) =>
        module.importers.size === 0 &&
        module.id !== RESOLVED_PROGRAM_MODULE &&
        !(module.id && this.#state.isDeviceModule(module.id)),
    );
    const seen = new Set(pending);
    for (let module = pending.pop(); module; module = pending.pop()) {
      if (module.id && this.#state.isDeviceModule(module.id)) {
        imported.add(rootRelativePath(this.#state.root, module.id));
      }
      for (const next of module.importedModules) {
        if (!seen.has(next)) {
          seen.add(next);
          pending.push(next);
        }
      }
    }
    return imported;
  }

  /**
   * Compiles again the device modules an edit invalidated, before linking: during a hot update the
   * browser may ask for the program before it asks for the edited module. Compiling one may add
   * device modules it now imports to the module graph: those are compiled in the next round.
   */
  async #recompileStale(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    const tried = new Set<ModuleNode>();
    for (;;) {
      const imported = this.#imported();
      const stale = [...server.moduleGraph.idToModuleMap.values()].filter(
        (module) =>
          module.id !== null &&
          this.#state.isDeviceModule(module.id) &&
          imported.has(rootRelativePath(this.#state.root, module.id)) &&
          module.transformResult === null &&
          !tried.has(module),
      );
      if (stale.length === 0) return;
      for (const module of stale) tried.add(module);
      // A module that no longer compiles reports its error when the browser asks for it.
      await Promise.allSettled(stale.map((module) => server.transformRequest(module.url)));
    }
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
