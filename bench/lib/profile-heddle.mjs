// Runs Heddle's loop a few times against an already running bench chat server, for `node --cpu-prof`. Usage:
//   node --cpu-prof --cpu-prof-dir=DIR profile-heddle.mjs <heddle|floor> <baseUrl> <turns> <argumentBytes> <runs>
import { runFloor, runHeddle } from "./chat-clients.mjs";

const [which, baseUrl, turns, argumentBytes, runs] = process.argv.slice(2);
const run = which === "floor" ? runFloor : runHeddle;
const options = { baseUrl, turns: Number(turns), argumentBytes: Number(argumentBytes) };
for (let i = 0; i < Number(runs); i++) await run(options);
