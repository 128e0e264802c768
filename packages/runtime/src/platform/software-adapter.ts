/**
 * SwiftShader, a Vulkan driver that runs on the CPU, as a WebGPU adapter for machines without a
 * GPU. Its binaries come from the `@sparticuz/chromium` package (an optional peer dependency),
 * extracted once into the OS temp directory.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { extract } from 'tar';

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
    extract({ file: join(root, 'bin', 'swiftshader.tar.br'), cwd: staging, sync: true });
    try {
      renameSync(staging, dir);
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return { icd: join(dir, 'vk_swiftshader_icd.json'), vulkanLoader: join(dir, 'libvulkan.so.1') };
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

function packageRoot(): string | null {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve(SOURCE_PACKAGE);
  } catch {
    return null;
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
  return null;
}
