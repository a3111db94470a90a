"use client";

import { apiKeyUsageEndpoint } from "@/lib/api-keys/endpoints";
import { useApiQuery } from "@/lib/client/queries";
import type { ResponseOf } from "@/lib/contract/endpoint";
import { DataState } from "@/components/ui/data-state";

type UsageDay = ResponseOf<typeof apiKeyUsageEndpoint>["days"][number];
type Outcome = Exclude<keyof UsageDay, "date">;

/** Bottom to top in each bar, with the colour and the words the legend gives them. */
const OUTCOMES: readonly { outcome: Outcome; label: string; color: string }[] = [
  { outcome: "ok", label: "OK", color: "var(--ok)" },
  { outcome: "client_error", label: "Client error", color: "var(--warn)" },
  { outcome: "rate_limited", label: "Rate limited", color: "var(--accent)" },
  { outcome: "denied", label: "Denied", color: "var(--danger)" },
];

const BAR = 10;
const HEIGHT = 100;

const totalOf = (day: UsageDay) => OUTCOMES.reduce((sum, { outcome }) => sum + day[outcome], 0);
const shortDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" });

/** A key's requests over the last 30 days (GET /v1/api_keys/{key}/usage) as stacked bars, with the figures as a table for screen readers. */
export function KeyUsageChart({ keyId }: { keyId: string }) {
  const usage = useApiQuery(apiKeyUsageEndpoint, { params: { key: keyId } });
  return <DataState query={usage}>{usage.data && <UsageBars days={usage.data.days} />}</DataState>;
}

function UsageBars({ days }: { days: readonly UsageDay[] }) {
  const busiest = Math.max(0, ...days.map(totalOf));
  // An empty chart keeps a scale of 1, so no bar divides by zero.
  const highest = Math.max(1, busiest);
  const totals = OUTCOMES.map(({ outcome, label }) => ({
    label,
    count: days.reduce((sum, day) => sum + day[outcome], 0),
  }));
  const summary = `${totals.reduce((sum, { count }) => sum + count, 0)} requests in 30 days: ${totals
    .map(({ label, count }) => `${count} ${label.toLowerCase()}`)
    .join(", ")}`;
  return (
    <figure className="usage-chart">
      <svg
        viewBox={`0 0 ${days.length * BAR} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
        data-testid="key-usage-chart"
      >
        {days.map((day, index) => (
          <DayBar key={day.date} day={day} x={index * BAR} scale={HEIGHT / highest} />
        ))}
      </svg>
      <div className="usage-axis muted small" aria-hidden="true">
        <span>{shortDate(days[0]!.date)}</span>
        <span>{busiest === 0 ? "no requests yet" : `most in a day: ${busiest.toLocaleString("en-US")}`}</span>
        <span>today</span>
      </div>
      <figcaption>
        <ul className="usage-legend plain-list small">
          {OUTCOMES.map(({ outcome, label, color }, index) => (
            <li key={outcome}>
              <span className="usage-swatch" style={{ background: color }} aria-hidden="true" />
              {label} <span className="muted">{totals[index]!.count}</span>
            </li>
          ))}
        </ul>
      </figcaption>
      <UsageTable days={days} />
    </figure>
  );
}

function DayBar({ day, x, scale }: { day: UsageDay; x: number; scale: number }) {
  // Each outcome's segment sits on the ones below it: its bottom is the sum of theirs.
  const tops = OUTCOMES.map((_, index) =>
    OUTCOMES.slice(0, index + 1).reduce((sum, { outcome }) => sum + day[outcome] * scale, 0),
  );
  return (
    <g>
      <title>{`${day.date}: ${totalOf(day)} requests`}</title>
      {OUTCOMES.map(
        ({ outcome, color }, index) =>
          day[outcome] > 0 && (
            <rect
              key={outcome}
              x={x + 1}
              y={HEIGHT - tops[index]!}
              width={BAR - 2}
              height={day[outcome] * scale}
              fill={color}
            />
          ),
      )}
    </g>
  );
}

function UsageTable({ days }: { days: readonly UsageDay[] }) {
  return (
    // Hidden in a box of its own: a table is never narrower than its cells, whatever its width says.
    <div className="visually-hidden">
      <table>
        <caption>Requests per day, by outcome</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {OUTCOMES.map(({ outcome, label }) => (
              <th key={outcome} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{day.date}</th>
              {OUTCOMES.map(({ outcome }) => (
                <td key={outcome}>{day[outcome]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
