/**
 * `datetime.now().strftime(format)` as transformers' `strftime_now` gives it on Linux: glibc's strftime in
 * the C locale (English names), on the local time. Hand-written: the directives chat templates use are
 * few, and @huggingface/jinja's own knows eight and names months in the machine's locale. glibc's `-`
 * flag (`%-d`: no padding) is honoured; a directive not listed is left as written.
 */
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function pad(value: number, width: number, unpadded: boolean): string {
  return unpadded ? String(value) : String(value).padStart(width, '0');
}

function dayOfYear(date: Date): number {
  const start = new Date(date.getFullYear(), 0, 1);
  const utcDay = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate());
  return Math.round((utcDay - Date.UTC(start.getFullYear(), 0, 1)) / 86_400_000) + 1;
}

export function pythonStrftime(date: Date, format: string): string {
  return format.replace(/%(-?)([a-zA-Z%])/g, (whole, flag: string, directive: string) => {
    const unpadded = flag === '-';
    const hours = date.getHours();
    switch (directive) {
      case 'a':
        return DAYS[date.getDay()].slice(0, 3);
      case 'A':
        return DAYS[date.getDay()];
      case 'b':
      case 'h':
        return MONTHS[date.getMonth()].slice(0, 3);
      case 'B':
        return MONTHS[date.getMonth()];
      case 'd':
        return pad(date.getDate(), 2, unpadded);
      case 'e':
        return unpadded ? String(date.getDate()) : String(date.getDate()).padStart(2, ' ');
      case 'H':
        return pad(hours, 2, unpadded);
      case 'I':
        return pad(hours % 12 === 0 ? 12 : hours % 12, 2, unpadded);
      case 'j':
        return pad(dayOfYear(date), 3, unpadded);
      case 'm':
        return pad(date.getMonth() + 1, 2, unpadded);
      case 'M':
        return pad(date.getMinutes(), 2, unpadded);
      case 'p':
        return hours < 12 ? 'AM' : 'PM';
      case 'S':
        return pad(date.getSeconds(), 2, unpadded);
      case 'y':
        return pad(date.getFullYear() % 100, 2, unpadded);
      case 'Y':
        return String(date.getFullYear());
      case 'F':
        return `${date.getFullYear()}-${pad(date.getMonth() + 1, 2, false)}-${pad(date.getDate(), 2, false)}`;
      case '%':
        return '%';
      default:
        return whole;
    }
  });
}
