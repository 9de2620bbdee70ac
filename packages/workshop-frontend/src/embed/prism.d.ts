/** Prism's core and language files, as the embed imports them (the types describe the package's main). */
declare module "prismjs/components/prism-core" {
  import * as Prism from "prismjs";
  export default Prism;
}
declare module "prismjs/components/prism-clike";
declare module "prismjs/components/prism-javascript";
declare module "prismjs/components/prism-typescript";
