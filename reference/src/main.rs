//! skate-collision reference harness: runs the public `frostbite-formats` crate (GPL) as a black box to produce and
//! decode PhysicsResources for our golden files. Nothing here is shipped; see README.md.
//!
//! Modes:
//!   encode IN.json OUT.physics   mesh objects -> one PhysicsResource (stats as JSON on stdout)
//!   decode IN.physics            what physics::read decodes, as JSON on stdout (tree boxes via decode_node)
//!   weld IN.json                 what physics::weld makes of each object, as JSON on stdout
//!
//! Input JSON: { "word08": u32 (default 1), "body": hex string (default: none), "split": u32 triangles per batch
//! (optional: split each welded object's triangles into consecutive batches of at most that many),
//! "objects": [ { "name": str, "positions": [x,y,z,...], "indices": [a,b,c,...], "material": u32,
//! "ids": [u32,u32,u32] (default [0,0,0]) } ] }

use frostbite_formats::physics::{self, decode_node, mesh_shape, weld, Part, PhysicsResource, Shape};
use serde_json::{json, Value};
use std::process::exit;

fn die(msg: String) -> ! {
    eprintln!("reference: {msg}");
    exit(1)
}

fn u32_of(v: &Value, what: &str) -> u32 {
    v.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or_else(|| die(format!("{what}: not a u32: {v}")))
}

struct Object {
    name: String,
    positions: Vec<[f32; 3]>,
    triangles: Vec<[u32; 3]>,
    material: u32,
    ids: [u32; 3],
}

fn objects(input: &Value) -> Vec<Object> {
    let list = input["objects"].as_array().unwrap_or_else(|| die("input: no objects array".into()));
    list.iter()
        .enumerate()
        .map(|(i, o)| {
            let name = o["name"].as_str().map(str::to_owned).unwrap_or_else(|| format!("object{i}"));
            let p: Vec<f32> = o["positions"]
                .as_array()
                .unwrap_or_else(|| die(format!("{name}: no positions")))
                .iter()
                .map(|v| v.as_f64().unwrap_or_else(|| die(format!("{name}: position not a number"))) as f32)
                .collect();
            let ix: Vec<u32> = o["indices"]
                .as_array()
                .unwrap_or_else(|| die(format!("{name}: no indices")))
                .iter()
                .map(|v| u32_of(v, "index"))
                .collect();
            if p.len() % 3 != 0 || ix.len() % 3 != 0 {
                die(format!("{name}: positions {} / indices {} not multiples of 3", p.len(), ix.len()));
            }
            let ids = match o.get("ids") {
                Some(Value::Array(a)) if a.len() == 3 => [u32_of(&a[0], "id"), u32_of(&a[1], "id"), u32_of(&a[2], "id")],
                None => [0, 0, 0],
                Some(v) => die(format!("{name}: ids must be three u32: {v}")),
            };
            Object {
                positions: p.chunks(3).map(|c| [c[0], c[1], c[2]]).collect(),
                triangles: ix.chunks(3).map(|c| [c[0], c[1], c[2]]).collect(),
                material: o.get("material").map_or(0x20, |v| u32_of(v, "material")),
                ids,
                name,
            }
        })
        .collect()
}

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(format!("{path}: {e}")));
    serde_json::from_str(&text).unwrap_or_else(|e| die(format!("{path}: {e}")))
}

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap_or_else(|_| die("body: bad hex".into()))).collect()
}

fn hexs(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn encode(inp: &str, out: &str) {
    let input = read_json(inp);
    let word08 = input.get("word08").map_or(1, |v| u32_of(v, "word08"));
    let body = input.get("body").and_then(Value::as_str).map(unhex).unwrap_or_default();
    let split = input.get("split").map(|v| u32_of(v, "split") as usize);
    let mut shapes = Vec::new();
    let mut parts = Vec::new();
    let mut stats = Vec::new();
    for o in objects(&input) {
        let w = weld(&o.positions, &o.triangles).unwrap_or_else(|e| die(format!("{}: weld: {e}", o.name)));
        let batches: Vec<&[[u32; 3]]> = match split {
            Some(n) if n > 0 => w.triangles.chunks(n).collect(),
            _ => vec![&w.triangles[..]],
        };
        let mut made = Vec::new();
        for (b, tris) in batches.iter().enumerate() {
            match mesh_shape(&w.positions, tris) {
                Ok(Some((s, centre))) => {
                    made.push(json!({"batch": b, "shape": shapes.len(), "vertices": s.vertices.len(),
                        "faces": s.face_count(), "centre": centre}));
                    parts.push(Part::mesh(shapes.len() as u32, centre, o.ids, o.material));
                    shapes.push(s);
                }
                Ok(None) => made.push(json!({"batch": b, "none": true})),
                Err(e) => made.push(json!({"batch": b, "error": e.to_string()})),
            }
        }
        stats.push(json!({"name": o.name, "input_triangles": o.triangles.len(), "input_vertices": o.positions.len(),
            "welded_vertices": w.positions.len(), "welded_triangles": w.triangles.len(),
            "degenerate": w.degenerate, "repeated": w.repeated, "batches": made}));
    }
    let res = PhysicsResource { version: 2, word08, body, shapes, parts };
    let result = physics::write(&res);
    let (ok, err, size) = match &result {
        Ok(b) => {
            std::fs::write(out, b).unwrap_or_else(|e| die(format!("{out}: {e}")));
            (true, Value::Null, b.len())
        }
        Err(e) => (false, json!(e.to_string()), 0),
    };
    println!("{}", json!({"ok": ok, "write_error": err, "bytes": size, "objects": stats}));
    if !ok {
        exit(2)
    }
}

fn edge_json(s: &Shape) -> Value {
    let v: Vec<Value> = s.edges.iter().map(|e| json!([e.value, e.concave as u8, e.flat as u8])).collect();
    json!(v)
}

/// Boxes of every heap node: [0] is the shape bounds; node i's children 2i+1, 2i+2 get decode_node's boxes.
fn boxes(s: &Shape) -> Vec<[f32; 6]> {
    let inner = s.tree.len();
    if inner == 0 {
        return vec![[s.min[0], s.min[1], s.min[2], s.max[0], s.max[1], s.max[2]]];
    }
    let mut b = vec![[0f32; 6]; 2 * inner + 1];
    b[0] = [s.min[0], s.min[1], s.min[2], s.max[0], s.max[1], s.max[2]];
    for i in 0..inner {
        let (l, r) = decode_node(b[i], s.tree[i]);
        b[2 * i + 1] = l;
        b[2 * i + 2] = r;
    }
    b
}

fn decode(inp: &str) {
    let bytes = std::fs::read(inp).unwrap_or_else(|e| die(format!("{inp}: {e}")));
    let r = physics::read(&bytes).unwrap_or_else(|e| die(format!("{inp}: read: {e}")));
    let rewritten = physics::write(&r).map(|b| b == bytes).unwrap_or(false);
    let shapes: Vec<Value> = r
        .shapes
        .iter()
        .map(|s| {
            let (offs, ids) = s.corner_index();
            json!({"min": s.min, "max": s.max, "vertices": s.vertices, "faces": s.faces, "corners": s.corners,
                "edges": edge_json(s), "tree": s.tree.iter().map(|n| format!("{n:016x}")).collect::<Vec<_>>(),
                "planes": s.planes.iter().map(|p| json!([p.normal, p.offset])).collect::<Vec<_>>(),
                "vertex_corner_offsets": offs, "corner_ids": ids, "node_boxes": boxes(s)})
        })
        .collect();
    let parts: Vec<Value> = r
        .parts
        .iter()
        .map(|p| json!({"rotation": p.rotation, "position": p.position, "w": p.w, "word20": p.word20, "kind": p.kind,
            "ids": p.ids, "word34": p.word34, "shape": p.shape, "word3c": p.word3c, "material": p.material,
            "flags": p.flags}))
        .collect();
    println!("{}", json!({"version": r.version, "word08": r.word08, "body": hexs(&r.body), "bytes": bytes.len(),
        "rewrites_identically": rewritten, "shapes": shapes, "parts": parts}));
}

fn welds(inp: &str) {
    let input = read_json(inp);
    let out: Vec<Value> = objects(&input)
        .iter()
        .map(|o| match weld(&o.positions, &o.triangles) {
            Ok(w) => json!({"name": o.name, "positions": w.positions, "triangles": w.triangles, "source": w.source,
                "degenerate": w.degenerate, "repeated": w.repeated}),
            Err(e) => json!({"name": o.name, "error": e.to_string()}),
        })
        .collect();
    println!("{}", json!(out));
}

/// decode_node on a parent box (six numbers) and a node word (hex): prints the two child boxes.
fn node(a: &[String]) {
    let mut p = [0f32; 6];
    for (k, v) in a[..6].iter().enumerate() {
        p[k] = v.parse().unwrap_or_else(|_| die(format!("node: bad box value {v}")));
    }
    let w = u64::from_str_radix(a[6].trim_start_matches("0x"), 16).unwrap_or_else(|_| die("node: bad word".into()));
    let (l, r) = decode_node(p, w);
    println!("{}", json!({"left": l, "right": r}));
}

/// `node` for every stdin line "minx miny minz maxx maxy maxz hexword": prints the 12 child values a line.
fn nodes() {
    use std::io::BufRead;
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap_or_else(|e| die(format!("stdin: {e}")));
        let a: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        if a.len() != 7 {
            die(format!("nodes: want 7 fields, got {line:?}"));
        }
        let mut p = [0f32; 6];
        for (k, v) in a[..6].iter().enumerate() {
            p[k] = v.parse().unwrap_or_else(|_| die(format!("nodes: bad box value {v}")));
        }
        let w = u64::from_str_radix(&a[6], 16).unwrap_or_else(|_| die("nodes: bad word".into()));
        let (l, r) = decode_node(p, w);
        let v: Vec<String> = l.iter().chain(r.iter()).map(|x| format!("{:08x}", x.to_bits())).collect();
        println!("{}", v.join(" "));
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    match (a.get(1).map(String::as_str), a.len()) {
        (Some("encode"), 4) => encode(&a[2], &a[3]),
        (Some("decode"), 3) => decode(&a[2]),
        (Some("weld"), 3) => welds(&a[2]),
        (Some("node"), 9) => node(&a[2..]),
        (Some("nodes"), 2) => nodes(),
        _ => die("usage: reference encode IN.json OUT.physics | decode IN.physics | weld IN.json | node MINX MINY MINZ MAXX MAXY MAXZ HEXWORD".into()),
    }
}
