// The look of the plain GET/POST forms on the add-on, upgrade and campaign pages, named once.
export const fieldClass =
  "mt-1 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";
export const labelClass = "flex flex-col text-xs font-medium text-zinc-600 dark:text-zinc-400";

/** A labelled select whose empty choice means "All" (a filter that is not set). */
export function FilterSelect({ name, text, value, options }: { name: string; text: string; value: string | undefined; options: string[] }) {
  return (
    <label className={labelClass}>
      {text}
      <select name={name} defaultValue={value ?? ""} className={fieldClass}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
