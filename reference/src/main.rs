use frostbite_formats::physics::{self, mesh_shape, weld, Part, PhysicsResource};
fn main() {
    let (x, y, z) = (0.5f32, 1.0f32, 1.5f32);
    let p: Vec<[f32; 3]> = [[-x,-y,-z],[x,-y,-z],[x,y,-z],[-x,y,-z],[-x,-y,z],[x,-y,z],[x,y,z],[-x,y,z]]
        .iter().map(|v| [v[0]+20.0, v[1]+30.0, v[2]]).collect();
    let quads = [[4,5,6,7],[1,0,3,2],[5,1,2,6],[0,4,7,3],[7,6,2,3],[0,1,5,4]];
    let t: Vec<[u32;3]> = quads.iter().flat_map(|&[a,b,c,d]: &[u32;4]| [[a,b,c],[a,c,d]]).collect();
    let w = weld(&p, &t).unwrap();
    let (s, c) = mesh_shape(&w.positions, &w.triangles).unwrap().unwrap();
    let res = PhysicsResource { version: 2, word08: 1, body: vec![0xAB; 0x4c], shapes: vec![s], parts: vec![Part::mesh(0, c, [1,2,3], 0x20)] };
    let b = physics::write(&res).unwrap();
    std::fs::write("/tmp/box.physics", &b).unwrap();
}
