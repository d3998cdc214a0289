/** The payslip template of bench:payslips and bench:payslips-scale: a one-page payslip with every column. */
export const PAYSLIP_BENCH_TEMPLATE = `<!doctype html><html><head><style>
  body { font-family: sans-serif; font-size: 11pt; margin: 2cm; } h1 { font-size: 16pt; }
  table { border-collapse: collapse; width: 100%; } td { border-bottom: 1px solid #ccc; padding: 3px 6px; }
  td:last-child { text-align: right; }
</style></head><body>
<h1>{{company.name}}</h1><h2>Payslip {{payroll.name}} ({{payroll.date_start}} to {{payroll.date_end}})</h2>
<p>{{employee.name}} ({{employee.employee_id}}), {{employee.department}}; paid in {{employee.currency}}</p>
<table>{{#each columns}}<tr><td>{{name}}</td><td>{{value}}</td></tr>{{/each}}</table>
</body></html>`;
