// The Prometheus text-format parser the tests read /metrics with (it ships no types).
declare module "parse-prometheus-text-format" {
  export type MetricFamily = {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: {
      labels?: Record<string, string>;
      value?: string;
      buckets?: Record<string, string>;
      count?: string;
      sum?: string;
    }[];
  };
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
