import "bootstrap/dist/css/bootstrap.min.css";
import "bootstrap-icons/font/bootstrap-icons.min.css";
import "./app/accessibility.css";
import "./features/theme/theme.css";
import { createRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { startTheme } from "./features/theme/theme-store.ts";

// The colour mode is set before the first render: no light flash on a dark system.
startTheme();

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(<App />);
