/**
 * The docs site: VitePress over docs/ (the guides, the API reference TypeDoc generates into
 * docs/api, the cookbook and the gallery). The syclts Vite plugin compiles the `.sycl.ts`
 * modules that the gallery and the cookbook run live in their pages.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import syclts from 'unplugin-syclts/vite';
import { defineConfig } from 'vitepress';

const docs = dirname(import.meta.dirname);
const repository = 'https://github.com/syclts/syclts';

/**
 * A link from a page to a file of the repository outside docs/ (`../examples/reduce`,
 * `../packages/unplugin/README.md`): to the file on GitHub, where the site has no page for it.
 */
function outsideLink(page: string, href: string): string | undefined {
  if (/^[a-z]+:|^#|^\//i.test(href)) return undefined;
  const [path = '', hash] = href.split('#');
  const target = posix.normalize(posix.join(posix.dirname(page), path));
  if (!target.startsWith('../')) return undefined;
  const inRepo = target.slice(3);
  const onDisk = join(docs, '..', inRepo);
  const kind = existsSync(onDisk) && statSync(onDisk).isDirectory() ? 'tree' : 'blob';
  return `${repository}/${kind}/main/${inRepo}${hash === undefined ? '' : `#${hash}`}`;
}

/** GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen. */
function githubSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The heading anchors of a page of docs/, as the site makes them. */
const anchorsOf = new Map<string, Set<string>>();
function anchors(page: string): Set<string> {
  let found = anchorsOf.get(page);
  if (found === undefined) {
    found = new Set();
    const text = readFileSync(join(docs, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const [, heading = ''] of text.matchAll(/^#{1,6} +(.*)$/gm)) {
      const base = githubSlug(heading.replace(/[`*\\]|\[([^\]]*)\]\([^)]*\)/g, '$1'));
      let slug = base;
      for (let n = 1; found.has(slug); n++) slug = `${base}-${n}`;
      found.add(slug);
    }
    anchorsOf.set(page, found);
  }
  return found;
}

/**
 * TypeDoc's markdown now and then numbers an anchor as if its name were taken twice
 * (`dsl.md#groupoperatorname-1` where the page has one such heading): to the heading there is.
 */
function apiAnchor(page: string, href: string): string | undefined {
  const match = /^((?:[^#:]*\.md)?)#(.+)-\d+$/.exec(href);
  if (match === null) return undefined;
  const [, file = '', base = ''] = match;
  const target = file === '' ? page : posix.normalize(posix.join(posix.dirname(page), file));
  if (!existsSync(join(docs, target))) return undefined;
  const known = anchors(target);
  return !known.has(href.slice(href.indexOf('#') + 1)) && known.has(base)
    ? `${file}#${base}`
    : undefined;
}

export default defineConfig({
  title: 'syclts',
  description: 'SYCL 2020 for WebGPU, written in TypeScript',
  lang: 'en',
  // The built site is plain files: every page is `<name>.html`, served by any static server.
  cleanUrls: false,
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/runtime' },
      { text: 'Cookbook', link: '/cookbook/' },
      { text: 'Gallery', link: '/gallery/' },
      { text: 'API', link: '/api/README' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Examples', link: '/examples' },
          { text: 'Device code', link: '/device-code' },
          { text: 'The runtime', link: '/runtime' },
          { text: 'Device-wide algorithms', link: '/algorithms' },
          { text: 'Device images', link: '/device-images' },
          { text: 'Error codes', link: '/errors' },
          { text: 'Design', link: '/design' },
          { text: 'Benchmarks', link: '/benchmarks' },
          { text: 'Bundle size', link: '/bundle-size' },
        ],
      },
      {
        text: 'Cookbook',
        items: [
          { text: 'Overview', link: '/cookbook/' },
          { text: 'Reduce', link: '/cookbook/reduce' },
          { text: 'Images in and out', link: '/cookbook/images' },
          { text: 'A particle system', link: '/cookbook/particles' },
          { text: 'Constants changed per frame', link: '/cookbook/per-frame-constants' },
          { text: 'State in a device global', link: '/cookbook/device-global-state' },
          { text: 'native, emulated or auto', link: '/cookbook/spec-constant-modes' },
          { text: 'Printing from a kernel', link: '/cookbook/debugging' },
          { text: 'Reading an error', link: '/cookbook/reading-errors' },
          { text: 'syclts, TypeGPU and raw WebGPU', link: '/cookbook/comparison' },
        ],
      },
      {
        text: 'Gallery',
        items: [
          { text: 'Overview', link: '/gallery/' },
          { text: 'hello', link: '/gallery/hello' },
          { text: 'reduce', link: '/gallery/reduce' },
          { text: 'compact', link: '/gallery/compact' },
          { text: 'histogram', link: '/gallery/histogram' },
          { text: 'matmul', link: '/gallery/matmul' },
          { text: 'convolution', link: '/gallery/convolution' },
          { text: 'starter', link: '/gallery/starter' },
        ],
      },
      {
        text: 'API reference',
        items: [
          { text: 'Packages', link: '/api/README' },
          { text: '@syclts/dsl', link: '/api/@syclts/dsl' },
          { text: '@syclts/runtime', link: '/api/@syclts/runtime' },
          { text: '@syclts/compiler', link: '/api/@syclts/compiler' },
          { text: '@syclts/algorithms', link: '/api/@syclts/algorithms' },
          { text: 'unplugin-syclts', link: '/api/unplugin-syclts' },
        ],
      },
    ],
    search: { provider: 'local' },
    socialLinks: [{ icon: 'github', link: repository }],
  },
  markdown: {
    // Heading anchors as GitHub makes them, which the pages' own links (`#limits`,
    // `benchmarks.md#device-wide-algorithms-sycltsalgorithms`) and TypeDoc's are written for.
    anchor: { slugify: githubSlug },
    config(md) {
      md.core.ruler.push('syclts-links-and-api-text', (state) => {
        const page = (state.env as { relativePath?: string }).relativePath ?? '';
        // TypeDoc's pages (docs/api) are text: `vec3<u32>` in a description is a type, not a tag.
        const api = page.startsWith('api/');
        for (const token of state.tokens) {
          if (api && token.type === 'html_block') token.type = 'text';
          for (const child of token.children ?? []) {
            if (api && child.type === 'html_inline') child.type = 'text';
            if (child.type === 'link_open') {
              const href = child.attrGet('href') ?? '';
              const fixed = outsideLink(page, href) ?? (api ? apiAnchor(page, href) : undefined);
              if (fixed !== undefined) child.attrSet('href', fixed);
            }
          }
        }
      });
    },
  },
  vite: {
    // The plugin's types are Vite 8's (the workspace's); VitePress 1 runs on its own Vite 5,
    // whose Plugin type differs in details the plugin does not use.
    // Both variants in every image, so queues can run constants native, emulated or tiered.
    plugins: [syclts({ specConstants: 'both' }) as never],
    build: { target: 'esnext' },
    // The examples' sources sit beside docs/, in the same repository.
    server: { fs: { allow: [join(docs, '..')] } },
  },
});
