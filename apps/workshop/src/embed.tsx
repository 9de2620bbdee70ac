import "./monaco-environment.ts";
import "./styles.css";
import { parseEmbedOptions } from "@gadgets/workshop-shared/embed";
import { EmbedPage, linkIdOf } from "@gadgets/workshop-frontend/embed";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element.");
// A malformed escape names no share: the embed says the link does not exist.
const shareId = linkIdOf(window.location.pathname.replace(/^\/embed\//, "").replace(/\/$/, "")) ?? "";
createRoot(root).render(
  <StrictMode>
    <EmbedPage shareId={shareId} options={parseEmbedOptions(window.location.search)} />
  </StrictMode>,
);
