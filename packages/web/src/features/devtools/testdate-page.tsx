import { useState } from "react";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Col from "react-bootstrap/Col";
import Form from "react-bootstrap/Form";
import Row from "react-bootstrap/Row";
import Table from "react-bootstrap/Table";
import { DEFAULT_DATE_FORMAT, formatDateTime, nowInputs } from "./format-date.ts";

const PRESETS = [
  DEFAULT_DATE_FORMAT,
  "YYYY-MM-DD",
  "_YYYY-MM-DD_H-mm-ss",
  "DD.MM.YYYY HH:mm",
  "dddd D MMMM YYYY, h:mm A",
];

const TOKENS: [string, string][] = [
  ["YYYY / YY", "year, 4 or 2 digits"],
  ["M / MM / MMM / MMMM", "month: 1, 01, Jan, January"],
  ["D / DD", "day of the month: 1, 01"],
  ["d / ddd / dddd", "weekday: 0-6, Mon, Monday"],
  ["H / HH, h / hh", "hour: 24-hour, 12-hour"],
  ["m / mm, s / ss, SSS", "minute, second, millisecond"],
  ["A / a", "AM PM, am pm"],
  ["Z / ZZ", "offset from UTC: +01:00, +0100"],
  ["[text]", "text kept as written"],
];

/**
 * /testdate: date, time and format-string inputs with the formatted result. Open to every
 * signed-in user: SPEC.md keeps only the console and the theme page to developers.
 */
export function TestDatePage() {
  const [{ date, time }, setInputs] = useState(nowInputs);
  const [format, setFormat] = useState(DEFAULT_DATE_FORMAT);
  const result = formatDateTime(date, time, format);

  return (
    <div style={{ maxWidth: 900 }}>
      <h1 className="h3 mb-3">Date format test</h1>
      <Card className="shadow-sm mb-4">
        <Card.Body>
          <Row className="g-3">
            <Col sm={6} md={3}>
              <Form.Group controlId="testdate-date">
                <Form.Label>Date</Form.Label>
                <Form.Control
                  type="date"
                  value={date}
                  onChange={(e) => setInputs({ date: e.target.value, time })}
                />
              </Form.Group>
            </Col>
            <Col sm={6} md={3}>
              <Form.Group controlId="testdate-time">
                <Form.Label>Time</Form.Label>
                <Form.Control
                  type="time"
                  step={1}
                  value={time}
                  onChange={(e) => setInputs({ date, time: e.target.value })}
                />
              </Form.Group>
            </Col>
            <Col md={6}>
              <Form.Group controlId="testdate-format">
                <Form.Label>Format string</Form.Label>
                <Form.Control
                  className="font-monospace"
                  value={format}
                  onChange={(e) => setFormat(e.target.value)}
                />
              </Form.Group>
            </Col>
          </Row>
          <div className="d-flex flex-wrap gap-2 mt-3">
            {PRESETS.map((preset) => (
              <Button
                key={preset}
                size="sm"
                variant="outline-secondary"
                className="font-monospace"
                onClick={() => setFormat(preset)}
              >
                {preset}
              </Button>
            ))}
            <Button size="sm" variant="outline-primary" onClick={() => setInputs(nowInputs())}>
              now
            </Button>
          </div>
          <div className="mt-4">
            <div className="small text-body-secondary">Result</div>
            <output
              htmlFor="testdate-date testdate-time testdate-format"
              className="d-block fs-4 font-monospace text-break"
              data-testid="testdate-result"
            >
              {result ?? <span className="text-danger fs-6">Enter a valid date</span>}
            </output>
          </div>
        </Card.Body>
      </Card>
      <h2 className="h6">Tokens</h2>
      <Table size="sm" bordered className="small" style={{ maxWidth: 600 }}>
        <tbody>
          {TOKENS.map(([token, meaning]) => (
            <tr key={token}>
              <td className="font-monospace text-nowrap">{token}</td>
              <td>{meaning}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
