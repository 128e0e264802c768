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
  '--no-sandbox',
  // The machines have no network beyond the package registries: keep Chromium off it.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function launchBrowser(): Promise<Browser> {
  const executablePath = await chromium.executablePath();
  return playwright.launch({ executablePath, headless: true, args: WEBGPU_FLAGS });
}
