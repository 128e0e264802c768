import { unplugin } from './index.js';

/** The syclts plugin for esbuild. */
export default unplugin.esbuild;
