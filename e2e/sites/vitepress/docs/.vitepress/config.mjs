// The recipe (docs/embedding.md, "VitePress"): the module in the site's head, from the folder the
// files were copied to (docs/public/pp/, served under the site's base), and Vue told that the tag
// is a custom element. The base is a sub-path, as on a project's GitHub Pages; the e2e spec serves
// the built site under it.
const base = '/target/e2e-vitepress/';

export default {
  title: 'Purgatory docs',
  base,
  outDir: '../../../../target/e2e-vitepress',
  head: [['script', { type: 'module', src: `${base}pp/purgatory-playground.js` }]],
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'purgatory-playground' } } },
  themeConfig: { nav: [{ text: 'Home', link: '/' }, { text: 'Story', link: '/story' }] },
};
