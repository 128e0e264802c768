import { unplugin } from './index.js';

/** The syclts plugin for rspack. */
export default unplugin.rspack;
