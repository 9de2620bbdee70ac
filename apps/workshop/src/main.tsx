import "./monaco-environment.ts";
import "./styles.css";
import { AppRoutes, needsWorkspace, routeOf, WorkshopProvider } from "@gadgets/workshop-frontend";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element.");
const route = routeOf(window.location.pathname);
createRoot(root).render(
  <StrictMode>
    <WorkshopProvider autoConnect={needsWorkspace(route)}>
      <AppRoutes route={route} />
    </WorkshopProvider>
  </StrictMode>,
);
