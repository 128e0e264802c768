import { unplugin } from './index.js';

/** The syclts plugin for rollup. */
export default unplugin.rollup;
