import { unplugin } from './index.js';

/** The syclts plugin for rolldown. */
export default unplugin.rolldown;
