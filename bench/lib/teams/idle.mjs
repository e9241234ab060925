// The "idle" scenario of bench/teams.bench.mjs: fresh processes (bench/lib/teams/idle-child.mjs) with 10 and with
// 1,010 idle teammates, taking turns at going first, per kind of storage. Per round, RSS per teammate is
// (RSS at 1,010 - RSS at 10) / 1,000: the same process set-up on both sides, so only the 1,000 teammates differ.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median } from "./common.mjs";

const child = fileURLToPath(new URL("./idle-child.mjs", import.meta.url));

function run(kind, count) {
  const out = spawnSync(process.execPath, ["--expose-gc", child, kind, String(count)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (out.status !== 0) throw new Error(`idle-child ${kind} ${count} exited ${out.status}`);
  return JSON.parse(out.stdout.trim().split("\n").pop());
}

const sum = (byType) => Object.values(byType).reduce((a, b) => a + b, 0);

export function measureIdle({ kinds, rounds, small = 10, large = 1_010 }) {
  const out = {};
  for (const kind of kinds) {
    const perTeammate = [];
    const heapPerTeammate = [];
    const runs = [];
    for (let r = 0; r < rounds; r++) {
      const pair = r % 2 ? [run(kind, large), run(kind, small)] : [run(kind, small), run(kind, large)];
      const [a, b] = pair[0].count === small ? pair : [pair[1], pair[0]];
      perTeammate.push((b.rss - a.rss) / (large - small));
      heapPerTeammate.push((b.heapUsed - a.heapUsed) / (large - small));
      runs.push(a, b);
    }
    const at = (count) => runs.filter((r) => r.count === count);
    const last = (count) => at(count).at(-1);
    out[kind] = {
      rssPerTeammateBytes: median(perTeammate),
      rssPerTeammateByRound: perTeammate,
      heapUsedPerTeammateBytes: median(heapPerTeammate),
      rssAt: { [small]: median(at(small).map((r) => r.rss)), [large]: median(at(large).map((r) => r.rss)) },
      resourcesAt: { [small]: last(small).resources, [large]: last(large).resources },
      resourcesGrowBy: sum(last(large).resources) - sum(last(small).resources),
      timersAt: { [small]: last(small).resources.Timeout ?? 0, [large]: last(large).resources.Timeout ?? 0 },
      idleCpuMsPerSecondAt: {
        [small]: median(at(small).map((r) => r.idleCpuMsPerSecond)),
        [large]: median(at(large).map((r) => r.idleCpuMsPerSecond)),
      },
    };
  }
  return out;
}
