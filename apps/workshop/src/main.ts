import { createRpcClient } from "@gadgets/workshop-shared";

const status = document.getElementById("status");
const client = createRpcClient();
client.api
  .ping()
  .then(() => {
    if (status) status.textContent = "The Workshop API is up. Call published agents with createRpcClient() from @gadgets/workshop-shared.";
  })
  .catch((error: unknown) => {
    if (status) status.textContent = `Cannot reach the Workshop API: ${error instanceof Error ? error.message : String(error)}`;
  });
