/**
 * Headless Chromium with WebGPU on SwiftShader: the browser inside the @sparticuz/chromium dev
 * dependency (extracted on first use), driven by playwright-core. Nothing is installed by hand.
 */
import chromium from '@sparticuz/chromium';
import { type Browser, chromium as playwright } from 'playwright-core';

const WEBGPU_FLAGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  // Without ANGLE on SwiftShader too, the GPU process finds no shared-image backing for a WebGPU
  // canvas's swap chain texture or an imported video frame, and the page's WebGPU instance is
  // lost ("A valid external Instance reference no longer exists", "Device was destroyed.").
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--no-sandbox',
  // The machines have no network beyond the package registries: keep Chromium off it.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium's zygote now and then dies during startup (SIGSEGV, "write: Broken pipe") while other
 * test files build and run on the same two cores; such a start is tried again, and said so. A
 * failure after the browser is up is never retried.
 */
const LAUNCH_ATTEMPTS = 3;

export async function launchBrowser(): Promise<Browser> {
  const executablePath = await chromium.executablePath();
  for (let attempt = 1; ; attempt++) {
    try {
      return await playwright.launch({ executablePath, headless: true, args: WEBGPU_FLAGS });
    } catch (error) {
      if (attempt === LAUNCH_ATTEMPTS || !diedStarting(error)) throw error;
      console.warn(`[syclts] Chromium died while starting (attempt ${attempt}); starting it again`);
    }
  }
}

function diedStarting(error: unknown): boolean {
  return error instanceof Error && /browser has been closed|process did exit/.test(error.message);
}
