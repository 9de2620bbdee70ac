import "./monaco-environment.ts";
import "./styles.css";
import { Workbench, WorkshopProvider } from "@gadgets/workshop-frontend";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element.");
createRoot(root).render(
  <StrictMode>
    <WorkshopProvider>
      <Workbench />
    </WorkshopProvider>
  </StrictMode>,
);
