import { unplugin } from './index.js';

/** The syclts plugin for webpack. */
export default unplugin.webpack;
