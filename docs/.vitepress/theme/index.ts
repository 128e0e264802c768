/** The default theme, with the component that runs an example live in the page. */
import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import LiveRun from './LiveRun.vue';
import './style.css';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('LiveRun', LiveRun);
  },
} satisfies Theme;
