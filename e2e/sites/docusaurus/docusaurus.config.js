// The recipe (docs/embedding.md, "In a Docusaurus site"): the module loaded on every page with
// `scripts` (type module), from the folder the files were copied to (static/pp/, served under the
// site's base), and the element written in the MDX pages as JSX. The base is a sub-path, as on a
// project's GitHub Pages; the e2e spec serves the built site under it.
const baseUrl = '/target/e2e-docusaurus/';

export default {
  title: 'Purgatory docs',
  url: 'http://127.0.0.1',
  baseUrl,
  trailingSlash: true,
  onBrokenLinks: 'throw',
  scripts: [{ src: `${baseUrl}pp/purgatory-playground.js`, type: 'module' }],
  presets: [['classic', { docs: { routeBasePath: '/', sidebarPath: false }, blog: false, theme: { customCss: './src/css/custom.css' } }]],
  themeConfig: {
    navbar: { title: 'Purgatory docs', items: [{ to: '/', label: 'Home', position: 'left' }, { to: '/story', label: 'Story', position: 'left' }] },
    colorMode: { defaultMode: 'light', respectPrefersColorScheme: false },
  },
};
