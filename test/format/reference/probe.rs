use frostbite_formats::physics::{self, mesh_shape, weld, Part, PhysicsResource, Shape, Plane, decode_node};
use std::io::BufRead;

fn mesh(p: &[[f32;3]], t: &[[u32;3]]) -> (Shape, [f32;3]) {
    let w = weld(p, t).unwrap();
    mesh_shape(&w.positions, &w.triangles).unwrap().unwrap()
}
fn boxmesh(c: [f32;3], h: [f32;3]) -> (Shape, [f32;3]) {
    let (x,y,z) = (h[0],h[1],h[2]);
    let p: Vec<[f32; 3]> = [[-x,-y,-z],[x,-y,-z],[x,y,-z],[-x,y,-z],[-x,-y,z],[x,-y,z],[x,y,z],[-x,y,z]]
        .iter().map(|v| [v[0]+c[0], v[1]+c[1], v[2]+c[2]]).collect();
    let quads = [[4,5,6,7],[1,0,3,2],[5,1,2,6],[0,4,7,3],[7,6,2,3],[0,1,5,4]];
    let t: Vec<[u32;3]> = quads.iter().flat_map(|&[a,b,c,d]: &[u32;4]| [[a,b,c],[a,c,d]]).collect();
    mesh(&p, &t)
}
fn grid(nx: usize, nz: usize, bump: f32) -> (Shape, [f32;3]) {
    let mut p = vec![]; let mut t = vec![];
    for j in 0..=nz { for i in 0..=nx { let h = bump * (((i*7+j*13)%5) as f32 - 2.0) * 0.1; p.push([i as f32, h, j as f32]); } }
    let w = (nx+1) as u32;
    for j in 0..nz as u32 { for i in 0..nx as u32 { let a = j*w+i; t.push([a, a+w, a+1]); t.push([a+1, a+w, a+w+1]); } }
    mesh(&p, &t)
}
fn strip(n: usize) -> (Shape, [f32;3]) {
    // n triangles in a fan-ish strip, odd counts
    let mut p = vec![]; let mut t = vec![];
    for i in 0..(n+2) { p.push([i as f32 * 0.5, (i % 2) as f32, (i as f32 * 0.3).sin()]); }
    for i in 0..n as u32 { if i % 2 == 0 { t.push([i, i+1, i+2]); } else { t.push([i+1, i, i+2]); } }
    mesh(&p, &t)
}
fn oct(n: [f32;3]) -> [i16;2] {
    let s = n[0].abs()+n[1].abs()+n[2].abs();
    let (mut x, mut y) = (n[0]/s, n[1]/s);
    if n[2] < 0.0 { let (ox, oy) = (x, y); x = (1.0 - oy.abs()) * if ox >= 0.0 {1.0} else {-1.0}; y = (1.0 - ox.abs()) * if oy >= 0.0 {1.0} else {-1.0}; }
    [(x*32767.0).round() as i16, (y*32767.0).round() as i16]
}
fn polyshape(boxed: bool) -> Shape {
    // a unit cube as 6 quads (box) or a pyramid with a quad base and 4 triangles (convex)
    if boxed {
        let v = vec![[-1.,-1.,-1.],[1.,-1.,-1.],[1.,1.,-1.],[-1.,1.,-1.],[-1.,-1.,1.],[1.,-1.,1.],[1.,1.,1.],[-1.,1.,1.]];
        let quads: [[u16;4];6] = [[4,5,6,7],[1,0,3,2],[5,1,2,6],[0,4,7,3],[7,6,2,3],[0,1,5,4]];
        let normals = [[0.,0.,1.],[0.,0.,-1.],[1.,0.,0.],[-1.,0.,0.],[0.,1.,0.],[0.,-1.,0.]];
        let corners: Vec<u16> = quads.iter().flatten().copied().collect();
        let faces: Vec<u16> = (0..=6).map(|i| i*4).collect();
        let planes = normals.iter().map(|n| Plane { normal: oct(*n), offset: -1.0 }).collect();
        Shape { min: [-1.,-1.,-1.], max: [1.,1.,1.], vertices: v, faces, corners, edges: vec![], tree: vec![], planes }
    } else {
        let v = vec![[-1.,0.,-1.],[1.,0.,-1.],[1.,0.,1.],[-1.,0.,1.],[0.,2.,0.]];
        let corners: Vec<u16> = vec![0,1,2,3, 0,4,1, 1,4,2, 2,4,3, 3,4,0];
        let faces: Vec<u16> = vec![0,4,7,10,13,16];
        let ns = [[0.,-1.,0.],[0.,0.447,-0.894],[0.894,0.447,0.],[0.,0.447,0.894],[-0.894,0.447,0.]];
        let planes = ns.iter().map(|n| Plane { normal: oct(*n), offset: -0.894 }).collect();
        Shape { min: [0.;3], max: [0.;3], vertices: v, faces, corners, edges: vec![], tree: vec![], planes }
    }
}
fn part(kind: u32, shape: u32, pos: [f32;3], mat: u32) -> Part { let mut p = Part::mesh(shape, pos, [shape+1, 7, 9], mat); p.kind = kind; p }
fn save(dir: &str, name: &str, r: &PhysicsResource) {
    let b = physics::write(r).unwrap();
    std::fs::write(format!("{dir}/{name}.physics"), &b).unwrap();
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    match a[1].as_str() {
        "gen" => {
            let d = &a[2]; std::fs::create_dir_all(d).unwrap();
            let body = (0..0x4c).map(|i| i as u8 ^ 0x5a).collect::<Vec<u8>>();
            let (b, bc) = boxmesh([20.,30.,0.],[0.5,1.0,1.5]);
            save(d, "box", &PhysicsResource { version: 2, word08: 1, body: body.clone(), shapes: vec![b.clone()], parts: vec![Part::mesh(0, bc, [1,2,3], 0x20)] });
            save(d, "box_nobody", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![b.clone()], parts: vec![Part::mesh(0, bc, [1,2,3], 0x20)] });
            let (s3, c3) = strip(3); let (s5, c5) = strip(5); let (g, gc) = grid(4, 3, 1.0);
            save(d, "multi", &PhysicsResource { version: 2, word08: 1, body: body.clone(), shapes: vec![s3.clone(), s5.clone(), g.clone()], parts: vec![part(5,0,c3,0x20), part(5,1,c5,0x60), part(5,2,gc,0x1a0)] });
            save(d, "strip1", &{ let (s, c) = strip(1); PhysicsResource { version: 2, word08: 1, body: vec![], shapes: vec![s], parts: vec![part(5,0,c,0x20)] } });
            save(d, "strip2", &{ let (s, c) = strip(2); PhysicsResource { version: 2, word08: 1, body: vec![], shapes: vec![s], parts: vec![part(5,0,c,0x20)] } });
            save(d, "convex", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![polyshape(false)], parts: vec![part(3,0,[1.,2.,3.],0x20)] });
            save(d, "boxplanes", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![polyshape(true)], parts: vec![part(2,0,[1.,2.,3.],0x20)] });
            save(d, "mixed", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![s3.clone(), polyshape(false), polyshape(true), s5.clone()], parts: vec![part(5,0,c3,0x20), part(3,1,[0.;3],0x20), part(2,2,[1.;3],0x60), part(5,3,c5,0x20), part(5, 0xffffffff, [0.;3], 0)] });
            let (g2, g2c) = grid(4, 3, 1.0);
            save(d, "mixed2", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![g2.clone(), polyshape(false)], parts: vec![part(5,0,g2c,0x20), part(3,1,[0.;3],0x20)] });
            save(d, "mixed3", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![polyshape(false), s3.clone()], parts: vec![part(3,0,[0.;3],0x20), part(5,1,c3,0x20)] });
            save(d, "mixed4", &PhysicsResource { version: 2, word08: 0, body: vec![1,2,3,4], shapes: vec![polyshape(true), strip(1).0, polyshape(false), strip(2).0], parts: vec![part(2,0,[0.;3],0x20)] });
            save(d, "mixed5", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![strip(4).0, polyshape(true)], parts: vec![part(2,1,[0.;3],0x20)] });
            let mut cp = polyshape(false); cp.planes.truncate(0);
            save(d, "convex_noplanes", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![cp.clone(), s3.clone()], parts: vec![part(3,0,[0.;3],0x20)] });
            save(d, "empty", &PhysicsResource { version: 2, word08: 0, body: vec![], shapes: vec![], parts: vec![] });
            save(d, "parts_only", &PhysicsResource { version: 2, word08: 1, body: body.clone(), shapes: vec![], parts: vec![part(5, 0xffffffff, [1.;3], 0x20)] });
            save(d, "grid", &{ let (s, c) = grid(32, 32, 1.0); PhysicsResource { version: 2, word08: 1, body: vec![], shapes: vec![s], parts: vec![part(5,0,c,0x20)] } });
            save(d, "grid_odd", &{ let (s, c) = grid(7, 5, 3.0); PhysicsResource { version: 2, word08: 1, body: vec![], shapes: vec![s], parts: vec![part(5,0,c,0x20)] } });
        }
        "node" => {
            for line in std::io::stdin().lock().lines() {
                let line = line.unwrap(); let f: Vec<&str> = line.split_whitespace().collect();
                if f.len() < 7 { continue; }
                let mut p = [0f32;6]; for i in 0..6 { p[i] = f32::from_bits(u32::from_str_radix(f[i], 16).unwrap()); }
                let w = u64::from_str_radix(f[6], 16).unwrap();
                let (l, r) = decode_node(p, w);
                let s: Vec<String> = l.iter().chain(r.iter()).map(|x| format!("{:08x}", x.to_bits())).collect();
                println!("{}", s.join(" "));
            }
        }
        "read" => {
            let b = std::fs::read(&a[2]).unwrap();
            match physics::read(&b) {
                Ok(r) => { let w = physics::write(&r).unwrap(); println!("ok shapes={} parts={} roundtrip={}", r.shapes.len(), r.parts.len(), w == b); }
                Err(e) => println!("err {e}"),
            }
        }
        _ => panic!(),
    }
}
