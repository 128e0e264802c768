/**
 * SwiftShader, a Vulkan driver that runs on the CPU, as a WebGPU adapter for machines without a
 * GPU. Its binaries come from the `@sparticuz/chromium` package (an optional peer dependency),
 * extracted once into the OS temp directory.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { errc, SyclError } from '../errors.js';

const SOURCE_PACKAGE = '@sparticuz/chromium';
/** glibc's RTLD_NODELETE, which Node does not export: keeps the loader mapped after dlopen "fails". */
const RTLD_NODELETE = 0x1000;

export interface SoftwareAdapterFiles {
  readonly icd: string;
  readonly vulkanLoader: string;
}

/** Locates (extracting on first use) the SwiftShader ICD, or returns null when the package is absent. */
export function softwareAdapterFiles(): SoftwareAdapterFiles | null {
  const root = packageRoot();
  if (!root) return null;
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = join(tmpdir(), `syclts-swiftshader-${version}`);
  if (!existsSync(join(dir, 'vk_swiftshader_icd.json'))) {
    // Extract beside the target and rename, so concurrent processes never see half a directory.
    const staging = mkdtempSync(`${dir}.tmp-`);
    const archive = join(root, 'bin', 'swiftshader.tar.br');
    extractFlatTar(brotliDecompressSync(readFileSync(archive)), staging, archive);
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return { icd: join(dir, 'vk_swiftshader_icd.json'), vulkanLoader: join(dir, 'libvulkan.so.1') };
}

/**
 * Writes the regular files of a tar archive with no directories (SwiftShader's: five libraries
 * and the ICD manifest). Written here rather than taken from a tar package, which every browser
 * app would then install for a code path only Node without a GPU runs.
 */
function extractFlatTar(tar: Uint8Array, into: string, archive: string): void {
  const text = (from: number, length: number): string =>
    new TextDecoder().decode(tar.subarray(from, from + length)).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const name = text(at, 100);
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const type = text(at + 156, 1) || '0';
    if (type !== '0' || name.includes('/') || !/^[\w.+-]+$/.test(name)) {
      throw new SyclError(
        errc.platform,
        `Queue.create: unexpected entry '${name}' (tar type ${type}) in SwiftShader's archive ${archive}`,
      );
    }
    writeFileSync(join(into, name), tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/**
 * Points the Vulkan loader at SwiftShader only, and loads SwiftShader's copy of the Vulkan loader
 * into the process so that Dawn's later `dlopen("libvulkan.so.1")` finds it even where the system
 * has none. Must run before Dawn creates its instance.
 */
export function useSoftwareAdapter(files: SoftwareAdapterFiles): void {
  process.env.VK_ICD_FILENAMES = files.icd;
  process.env.VK_DRIVER_FILES = files.icd;
  const flags = constants.dlopen.RTLD_NOW | constants.dlopen.RTLD_GLOBAL | RTLD_NODELETE;
  try {
    process.dlopen({ exports: {} }, files.vulkanLoader, flags);
  } catch {
    // Expected: the library is not a Node addon. It stays loaded thanks to RTLD_NODELETE.
  }
}

/** Whether the system has a Vulkan loader that Dawn's `dlopen("libvulkan.so.1")` would find. */
export function systemVulkanLoaderPresent(): boolean {
  if (process.platform !== 'linux') return true;
  try {
    process.dlopen({ exports: {} }, 'libvulkan.so.1', constants.dlopen.RTLD_LAZY);
    return true;
  } catch (error) {
    return !/cannot open shared object file/.test(String(error));
  }
}

/**
 * The package's directory, looked up from this module, from the app's entry script and from the
 * working directory: once bundled, this module's own URL may be gone (CommonJS output) or name
 * the machine that built it. `process.getBuiltinModule` rather than an import of `createRequire`,
 * which webpack and rspack would rewrite into their own resolution at build time.
 */
function packageRoot(): string | null {
  const { createRequire } = process.getBuiltinModule('node:module');
  for (const base of resolutionBases()) {
    let entry: string;
    try {
      entry = createRequire(base).resolve(SOURCE_PACKAGE);
    } catch {
      continue;
    }
    for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (
        existsSync(manifest) &&
        (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === SOURCE_PACKAGE
      ) {
        return dir;
      }
    }
  }
  return null;
}

function resolutionBases(): string[] {
  const bases: string[] = [];
  const own: unknown = import.meta.url;
  if (typeof own === 'string' && own.startsWith('file:')) bases.push(fileURLToPath(own));
  if (process.argv[1]) bases.push(process.argv[1]);
  bases.push(join(process.cwd(), 'package.json'));
  return bases;
}
