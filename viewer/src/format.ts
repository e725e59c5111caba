export function formatNumber(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return value.toFixed(digits);
}

export function formatP(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  if (value < 1e-4) return value.toExponential(1);
  return value.toFixed(4);
}

export function formatDate(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function formatCi(ci: [number, number] | null | undefined, digits = 4): string {
  if (!ci) return '—';
  return `[${formatNumber(ci[0], digits)}, ${formatNumber(ci[1], digits)}]`;
}
