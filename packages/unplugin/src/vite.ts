import { unplugin } from './index.js';

/** The syclts plugin for vite. */
export default unplugin.vite;
